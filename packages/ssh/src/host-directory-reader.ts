import { bytesOfName, FileType, nameFromBytes, type DirEntry, type ExecProcess } from '@kimi-tools/core/fs';
import type { SshSession } from './connection.js';
import { errnoError } from './errno-error.js';
import { remoteExec } from './remote-exec.js';
import { dirEntry } from './sftp-stats.js';

/**
 * A Python program kept running on the host for as long as the connection, that lists directories as SFTP's
 * `opendir`, `readdir` and `close` would, one request a line: `[id, path]` in, `[id, entries]` or `[id, "ECODE"]` out,
 * an entry being `[name, type]` (`f`, `d`, `l`, `p`, `s`, `c`, `b`: what `lstat` says; one that vanished meanwhile is
 * left out, as OpenSSH does). Names and paths are bytes carried as Latin-1 text, so none is changed on the way. It
 * answers every request it has read before it reads on: a walk's many directories cost a few messages, not three
 * requests each.
 */
const LISTING_SCRIPT = String.raw`
import errno, json, os, stat, sys
KINDS = ((stat.S_ISREG, 'f'), (stat.S_ISDIR, 'd'), (stat.S_ISLNK, 'l'), (stat.S_ISFIFO, 'p'),
         (stat.S_ISSOCK, 's'), (stat.S_ISCHR, 'c'), (stat.S_ISBLK, 'b'))
def kind(entry):
    try:
        if entry.is_symlink():
            return 'l'
        if entry.is_dir(follow_symlinks=False):
            return 'd'
        if entry.is_file(follow_symlinks=False):
            return 'f'
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return None
    for test, name in KINDS:
        if test(mode):
            return name
    return None
def listing(path):
    try:
        found = []
        with os.scandir(path) as entries:
            for entry in entries:
                name = kind(entry)
                if name:
                    found.append([entry.name.decode('latin-1'), name])
        return found
    except OSError as error:
        return errno.errorcode.get(error.errno, 'EIO')
out = sys.stdout.buffer
out.write(b'ready\n')
out.flush()
pending = b''
while True:
    data = os.read(0, 1 << 16)
    if not data:
        break
    lines = (pending + data).split(b'\n')
    pending = lines.pop()
    answers = []
    for line in lines:
        ident, path = json.loads(line.decode('ascii'))
        answers.append(json.dumps([ident, listing(path.encode('latin-1'))]))
    if answers:
        out.write(('\n'.join(answers) + '\n').encode('ascii'))
        out.flush()
`;

/** A character of a latin-1 string past ASCII, which the program's input must not hold raw. */
const NOT_ASCII = /[\u0080-\u00ff]/g;

/** `\u00XX`, JSON's escape of such a character. */
function asciiEscape(character: string): string {
  return `\\u00${character.charCodeAt(0).toString(16)}`;
}

/** The mode type bits of each type letter of the program. */
const MODES: Readonly<Record<string, number>> = {
  f: FileType.FILE,
  d: FileType.DIRECTORY,
  l: FileType.SYMBOLIC_LINK,
  p: FileType.FIFO,
  s: FileType.SOCKET,
  c: FileType.CHARACTER_DEVICE,
  b: FileType.BLOCK_DEVICE,
};

/** What a {@link HostDirectoryReader} needs of its backend. */
export interface HostDirectoryReaderSettings {
  /** The live session, connecting first when there is none. */
  readonly session: () => Promise<SshSession>;
  /** The host's Python 3, or `null` for none. */
  readonly program: string | null;
}

interface Waiting {
  path: string;
  resolve: (entries: DirEntry[]) => void;
  reject: (error: unknown) => void;
  /** Asked again over SFTP when the program ended on its own (the connection still up). */
  retry: () => Promise<DirEntry[]>;
}

/** The program running now (or starting), and what it was asked. */
interface Running {
  /** Set once it said it is ready: requests go to it from then on. */
  process: ExecProcess | undefined;
  /** The session it runs on. */
  session: SshSession | undefined;
  waiting: Map<number, Waiting>;
  /** Requests not written yet: written together once this turn of the event loop is over. */
  queued: string[];
  /** Settles once the program is ready (`true`) or ended before it was (`false`). */
  ready: Promise<boolean>;
  settleReady: (ready: boolean) => void;
}

/**
 * Lists directories through the host's Python ({@link LISTING_SCRIPT}), started at the first listing asked for and
 * kept running with the connection; until it is ready, and where there is no Python, listings go over SFTP. A host
 * whose Python is missing or cannot run the program is not asked again (per backend); a program that ends once it was
 * ready (the connection dropped) is started again at the next listing.
 */
export class HostDirectoryReader {
  #running: Running | undefined;
  #unusable = false;
  #nextId = 0;

  constructor(private readonly settings: HostDirectoryReaderSettings) {}

  /**
   * The entries of `path` as the program lists them, or `undefined` when it is not ready to (the caller lists it over
   * SFTP, with `sftp`; that is also how a request the program took with it when it ended on its own is answered).
   */
  readdir(path: string, sftp: () => Promise<DirEntry[]>): Promise<DirEntry[]> | undefined {
    const running = this.#running ?? this.#start();
    if (!running?.process || !running.session?.alive) return undefined;
    const id = this.#nextId++;
    return new Promise<DirEntry[]>((resolve, reject) => {
      running.waiting.set(id, { path, resolve, reject, retry: sftp });
      if (running.queued.length === 0) setImmediate(() => this.#flush(running));
      // The path and the names go as their bytes (one latin-1 character a byte), so a name that is not UTF-8 is
      // listed as it is (docs/paths.md#names-that-are-not-utf-8); in ASCII JSON, as the program reads its input.
      const bytes = (bytesOfName(path) ?? Buffer.from(path)).toString('latin1');
      running.queued.push(JSON.stringify([id, bytes]).replace(NOT_ASCII, asciiEscape));
    });
  }

  /**
   * Whether the program is ready to list, starting it when it is not running and waiting for it: for a listing only
   * it can give (a name that is not UTF-8, which SFTP reads as U+FFFD). `false` where there is no program.
   */
  whenReady(): Promise<boolean> {
    const running = this.#running ?? this.#start();
    return running ? running.ready : Promise.resolve(false);
  }

  #start(): Running | undefined {
    const { program, session } = this.settings;
    if (program === null || this.#unusable) return undefined;
    let settleReady: (ready: boolean) => void = () => undefined;
    const ready = new Promise<boolean>((resolve) => (settleReady = resolve));
    const running: Running = {
      process: undefined,
      session: undefined,
      waiting: new Map(),
      queued: [],
      ready,
      settleReady,
    };
    this.#running = running;
    void session().then(
      (live) => this.#run(running, live, program),
      () => this.#ended(running, false),
    );
    return running;
  }

  #run(running: Running, session: SshSession, program: string): void {
    running.session = session;
    const process = remoteExec(async () => session, program, ['-c', LISTING_SCRIPT], { stdin: 'pipe' });
    let buffered = '';
    process.stdout.setEncoding('latin1');
    process.stdout.on('data', (chunk: string) => {
      const lines = (buffered + chunk).split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (running.process) this.#answer(running, line);
        else if (line === 'ready') {
          running.process = process;
          running.settleReady(true);
        }
      }
    });
    process.stderr.resume();
    // Its standard input may close before a last write: that must not throw in the host.
    process.stdin?.on('error', () => undefined);
    process.exit.then(
      () => this.#ended(running, running.process === undefined && session.alive),
      () => this.#ended(running, running.process === undefined && session.alive),
    );
  }

  #flush(running: Running): void {
    const lines = running.queued.splice(0);
    if (lines.length > 0) running.process?.stdin?.write(`${lines.join('\n')}\n`);
  }

  #answer(running: Running, line: string): void {
    const [id, answer] = JSON.parse(line) as [number, Array<[string, string]> | string];
    const waiting = running.waiting.get(id);
    if (!waiting) return;
    running.waiting.delete(id);
    if (typeof answer === 'string') {
      waiting.reject(errnoError(answer, 'scandir', [waiting.path]));
      return;
    }
    waiting.resolve(
      answer.map(([name, type]) => dirEntry(nameFromBytes(Buffer.from(name, 'latin1')), MODES[type] ?? 0)),
    );
  }

  /**
   * The program ended (`unusable`: before it was ready, the connection up: no Python, or one that cannot run it).
   * What it was asked fails with the connection, or goes over SFTP when the connection is up.
   */
  #ended(running: Running, unusable: boolean): void {
    if (this.#running === running) this.#running = undefined;
    if (unusable) this.#unusable = true;
    running.settleReady(false);
    const session = running.session;
    for (const waiting of running.waiting.values()) {
      if (!session || session.alive) waiting.retry().then(waiting.resolve, waiting.reject);
      else waiting.reject(errnoError('ECONNRESET', 'scandir', [waiting.path], session.lost().message));
    }
    running.waiting.clear();
  }
}
