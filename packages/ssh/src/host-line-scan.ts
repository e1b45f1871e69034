import type { ExecProcess, FileStats, StoredLineScan, StoredLineScanRequest } from '@kimi-tools/core/fs';
import { errnoError } from './errno-error.js';

/**
 * The line scan a line index needs, as a Python program run on the host (docs/file-systems.md#line-scans-where-the-file-is):
 * the file is read once, in chunks, with `O_NONBLOCK` (a FIFO put there since never makes it wait) and counted as
 * core's `scanLines` counts it: `\n`, `\r\n` and a lone `\r` are breaks (a `\r\n` cut between two reads too), bytes
 * after the last break are a last line, a byte order mark the file starts with is no part of it; a checkpoint after the
 * last `\n` of each block, when far enough from the last; the SHA-256 hashed in a thread meanwhile; `00` looked for;
 * strict UTF-8 checked where a chunk is not plain ASCII (or a character is cut between two). It prints one JSON object:
 * what it found, and the file's size and whole-second modification time before and after, to compare with the version
 * the caller opened, after a first line `started` (a program not started in time is given up on). Arguments: path,
 * end, hash, nul, utf8 (`1` or `0`), checkpoint spacing, the byte order mark in hex, and the chunk and block sizes.
 */
const SCAN_SCRIPT = String.raw`
import codecs, hashlib, json, os, stat, sys, threading
try:
    import queue
except ImportError:
    import Queue as queue
path, end, want_hash, find_nul, check_utf8, spacing, bom, chunk_size, block_size = sys.argv[1:10]
end, spacing, chunk_size, block_size = int(end), int(spacing), int(chunk_size), int(block_size)
bom = bytes(bytearray.fromhex(bom))
sys.stdout.write('started\n')
sys.stdout.flush()
fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_NOCTTY', 0))
f = os.fdopen(fd, 'rb', 0)
def version():
    st = os.fstat(fd)
    return [st.st_size, int(st.st_mtime // 1), stat.S_ISREG(st.st_mode)]
before = version()
if not before[2]:
    print(json.dumps({'before': before}))
    sys.exit(0)
hasher = hashlib.sha256() if want_hash == '1' else None
chunks = queue.Queue(4)
def hash_all():
    while True:
        chunk = chunks.get()
        if chunk is None:
            return
        hasher.update(chunk)
worker = threading.Thread(target=hash_all) if hasher else None
if worker:
    worker.daemon = True
    worker.start()
decoder = codecs.getincrementaldecoder('utf-8')('strict') if check_utf8 == '1' else None
isascii = getattr(bytes, 'isascii', None)
LF, CR = b'\n', b'\r'
nul = not_utf8 = previous_cr = False
breaks = position = last_break_end = last_checkpoint = 0
checkpoints = [[1, 0]]
while position < end:
    chunk = f.read(min(chunk_size, end - position))
    if not chunk:
        break
    if position == 0 and bom and chunk.startswith(bom):
        last_break_end = len(bom)
    if worker:
        chunks.put(chunk)
    if find_nul == '1' and not nul:
        nul = b'\0' in chunk
    if decoder and not not_utf8:
        if decoder.getstate()[0] or not (isascii(chunk) if isascii else max(chunk) < 128):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                not_utf8 = True
    has_cr = CR in chunk
    size = len(chunk)
    start = 0
    while start < size:
        stop = min(start + block_size, size)
        # A \r\n is one break: its \n counts, its \r is taken off where the \n is, even across two reads.
        straddle = 1 if chunk[start:start + 1] == LF and (previous_cr if start == 0 else chunk[start - 1:start] == CR) else 0
        last_lf = chunk.rfind(LF, start, stop)
        if has_cr:
            last = max(last_lf, chunk.rfind(CR, start, stop))
            upto = last_lf + 1 if last_lf >= 0 else start
            head = chunk.count(LF, start, upto) + chunk.count(CR, start, upto) - chunk.count(b'\r\n', start, upto) - straddle
            block = head + chunk.count(LF, upto, stop) + chunk.count(CR, upto, stop) - chunk.count(b'\r\n', upto, stop)
        else:
            last = last_lf
            head = block = chunk.count(LF, start, stop) - straddle
        if last_lf >= 0:
            offset = position + last_lf + 1
            if offset - last_checkpoint >= spacing and offset < end:
                checkpoints.append([1 + breaks + head, offset])
                last_checkpoint = offset
        if last >= 0:
            last_break_end = position + last + 1
        breaks += block
        start = stop
    previous_cr = chunk[-1:] == CR
    position += size
if decoder and not not_utf8 and position >= end:
    try:
        decoder.decode(b'', True)
    except UnicodeDecodeError:
        not_utf8 = True
if worker:
    chunks.put(None)
    worker.join()
print(json.dumps({'before': before, 'after': version(), 'scanned': position,
                  'totalLines': breaks + (1 if position > last_break_end else 0), 'checkpoints': checkpoints,
                  'hash': hasher.hexdigest() if hasher else None, 'nulByte': nul, 'notUtf8': not_utf8}))
`;

/** Read size and counting block of the scan: one checkpoint per block at most, as core's scan makes one per read. */
const CHUNK_BYTES = 8 << 20;
const BLOCK_BYTES = 1 << 20;

/** What the program printed. */
interface ScanOutput {
  before: [number, number, boolean];
  after?: [number, number, boolean];
  scanned?: number;
  totalLines?: number;
  checkpoints?: Array<[number, number]>;
  hash?: string | null;
  nulByte?: boolean;
  notUtf8?: boolean;
}

/** How the backend runs programs on the host, and which Python it runs. */
export interface HostPythonSettings {
  readonly exec: (command: string, args: readonly string[]) => ExecProcess;
  /** The host's Python 3, or `null` for none. */
  readonly program: string | null;
  /** Files smaller than this are read rather than scanned on the host (a program costs a shell and its start). */
  readonly scanMinBytes: number;
  /** How long a scan may take to start (the host's login shell, Python's start-up) before it is not waited for. */
  readonly startTimeoutMs: number;
}

/**
 * The host's Python, for what is cheaper done where the files are. Asked for once it was found missing, it is not
 * asked again (per backend).
 */
export class HostPython {
  #missing = false;
  /** A scan not started within `startTimeoutMs`, not waited for but still starting: none other starts meanwhile. */
  #late: ExecProcess | undefined;

  constructor(
    private readonly settings: HostPythonSettings,
    /** The scan's read and block sizes (tests make them small, to cut lines and `\r\n` between reads). */
    private readonly sizes = { chunk: CHUNK_BYTES, block: BLOCK_BYTES },
  ) {}

  /**
   * The scan of `path` on the host, when this version of it (`stats`: its open file's) is large enough to be worth it
   * and the host has Python; `undefined` otherwise, or when the file scanned was not that version, or the program
   * failed or did not start within `startTimeoutMs` (nor will another until it has), or `request.signal` stopped it
   * (the caller's own scan then stops as it does). A connection lost meanwhile is `ECONNRESET`, as a read would be.
   */
  async scanLines(
    path: string,
    stats: FileStats,
    request: StoredLineScanRequest,
  ): Promise<StoredLineScan | undefined> {
    const { program: python, scanMinBytes, startTimeoutMs } = this.settings;
    if (python === null || this.#missing || this.#late) return undefined;
    if (request.end < scanMinBytes || request.end !== stats.size || request.signal?.aborted) return undefined;
    const flag = (value: boolean) => (value ? '1' : '0');
    const program = this.settings.exec(python, [
      '-c',
      SCAN_SCRIPT,
      path,
      String(request.end),
      flag(request.hash),
      flag(request.findNulByte),
      flag(request.checkUtf8),
      String(request.checkpointBytes),
      Buffer.from(request.bom).toString('hex'),
      String(this.sizes.chunk),
      String(this.sizes.block),
    ]);
    const stop = () => program.kill();
    request.signal?.addEventListener('abort', stop, { once: true });
    const output: Buffer[] = [];
    // Its first line says it started: the host's login shell and Python's own start-up are behind it.
    const started = new Promise<void>((resolve) => program.stdout.once('data', () => resolve()));
    program.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    program.stderr.resume();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), startTimeoutMs)),
    );
    void started.then(() => clearTimeout(timer));
    try {
      const ended = await Promise.race([program.exit, late]);
      if (ended === 'late') {
        this.#giveUp(program, started);
        return undefined;
      }
      if (ended.code !== 0 || request.signal?.aborted) return undefined;
      const text = Buffer.concat(output).toString('utf8');
      return answer(JSON.parse(text.slice(text.indexOf('\n') + 1)) as ScanOutput, stats, request);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET') throw errnoError('ECONNRESET', 'read', [path], (error as Error).message);
      if (code === 'ENOENT') this.#missing = true;
      return undefined;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Stops waiting for a scan whose start hangs (a login shell's start-up file, a Python wrapper waiting on a lock): the
   * caller reads the file over SFTP, and no scan is started until this one has (it is then ended: nobody wants its
   * answer any more) or has ended.
   */
  #giveUp(program: ExecProcess, started: Promise<void>): void {
    this.#late = program;
    void started.then(() => program.kill());
    const done = () => {
      if (this.#late === program) this.#late = undefined;
    };
    program.exit.then(done, done);
  }
}

/** The scan's answer, when it scanned the version the caller opened, whole and unchanged while it ran. */
function answer(
  output: ScanOutput,
  stats: FileStats,
  request: StoredLineScanRequest,
): StoredLineScan | undefined {
  const opened = [stats.size, Math.floor(stats.mtimeMs / 1000), true];
  const same = (seen: unknown) => JSON.stringify(seen) === JSON.stringify(opened);
  if (!same(output.before) || !same(output.after) || output.scanned !== request.end) return undefined;
  if (output.totalLines === undefined || output.checkpoints === undefined) return undefined;
  return {
    totalLines: output.totalLines,
    checkpoints: output.checkpoints.map(([line, offset]) => ({ line, offset })),
    ...(typeof output.hash === 'string' ? { hash: output.hash } : {}),
    nulByte: output.nulByte === true,
    notUtf8: output.notUtf8 === true,
  };
}
