import { Transform, type TransformCallback } from 'node:stream';

// A backend that starts programs through a shell where the files are (an SSH `exec` channel, `docker exec`, a
// sandbox's command API) cannot see the program start: what it started is the shell. The shell says so itself:
// just before `exec` of the program it prints a marker on standard output, and `exec` keeps its process id for the
// program. The backend reads its standard output through `StartMarkerStream`, which gives `ExecProcess.started` and
// `pid`, and passes the program's own output on unchanged.

/**
 * The shell command a launcher runs just before `exec` of the program: byte 1, the shell's process id (which `exec`
 * keeps for the program) and a line break, on standard output.
 */
export const PRINT_START_MARKER = `printf '\\001%s\\n' "$$"`;

/**
 * The standard output of a launcher that ran {@link PRINT_START_MARKER}: drops everything up to the marker (a login
 * script may print), records the process id the marker carries, and passes the program's own output through.
 */
export class StartMarkerStream extends Transform {
  #hasStarted = false;
  #pending = Buffer.alloc(0);
  #pid: number | undefined;
  #settle: (started: boolean) => void = () => undefined;

  /** `ExecProcess.started`: `true` at the marker, `false` when the output ended (or broke) before it. */
  readonly started = new Promise<boolean>((resolve) => {
    this.#settle = resolve;
  });

  constructor() {
    super();
    this.once('close', () => this.#settle(false));
  }

  /** Whether the marker was seen: the program runs, or ran. */
  get hasStarted(): boolean {
    return this.#hasStarted;
  }

  /** The program's process id, once the marker gave it. */
  get pid(): number | undefined {
    return this.#pid;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#hasStarted) {
      callback(null, chunk);
      return;
    }
    this.#pending = Buffer.concat([this.#pending, chunk]);
    const marker = this.#pending.indexOf(1);
    const lineEnd = marker === -1 ? -1 : this.#pending.indexOf(10, marker);
    if (lineEnd === -1) {
      callback();
      return;
    }
    this.#hasStarted = true;
    this.#pid = Number(this.#pending.toString('latin1', marker + 1, lineEnd));
    const rest = this.#pending.subarray(lineEnd + 1);
    this.#pending = Buffer.alloc(0);
    this.#settle(true);
    callback(null, rest.length > 0 ? rest : undefined);
  }

  override _flush(callback: TransformCallback): void {
    this.#settle(false);
    callback();
  }
}
