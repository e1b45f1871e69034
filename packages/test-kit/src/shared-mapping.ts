import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A file mapped shared and writable by another process: its writes change the bytes without a `write` call. */
export interface SharedMapping {
  /** Writes `text` (UTF-8) at `offset` through the mapping; resolves once the bytes are in the file's pages. */
  write(offset: number, text: string): Promise<void>;
  /** Unmaps the file and ends the process. */
  close(): Promise<void>;
}

// Node cannot map a file, so a python3 process holds the mapping: one line in per write, one line out when done.
const MAPPER = `
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
mapped = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
print('ready', flush=True)
for line in sys.stdin:
    offset, text = line.rstrip('\\n').split(' ', 1)
    data = text.encode()
    mapped[int(offset):int(offset) + len(data)] = data
    print('done', flush=True)
`;

/**
 * Maps the local `file` shared and writable in a python3 process, as a program editing through `mmap` does. A write
 * to a page already written through the mapping sets no new modification or change time (on a tmpfs, no such write
 * ever does): only the bytes tell it.
 */
export async function mapSharedForWriting(file: string): Promise<SharedMapping> {
  const child = spawn('python3', ['-c', MAPPER, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: (() => void)[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.shift()?.();
    }
  });
  const exited = once(child, 'exit');
  const nextLine = async (expected: string) => {
    if (lines.length === 0) {
      await Promise.race([
        new Promise<void>((resolve) => waiting.push(resolve)),
        exited.then(() => Promise.reject(new Error(`the mapping process of ${file} ended`))),
      ]);
    }
    const line = lines.shift();
    if (line !== expected) throw new Error(`the mapping process of ${file} said ${line}, not ${expected}`);
  };
  await nextLine('ready');
  return {
    write: async (offset, text) => {
      child.stdin.write(`${offset} ${text}\n`);
      await nextLine('done');
    },
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
