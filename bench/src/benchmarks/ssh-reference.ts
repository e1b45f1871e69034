// The reference side of the SSH rows: ssh2 used directly over one connection kept open, as a script would do it by
// hand. `exec` is `ssh host COMMAND` without the connection set-up; `replaceByHand` is the least an atomic edit over
// SFTP sends: open, fstat, the reads all in flight, close; a temp file created, the writes all in flight, close; one
// `posix-rename@openssh.com`. No lock and no checks; `durable` adds what makes it survive a crash of the host (the
// temp file's `fsync@openssh.com` before the rename, the directory's after it), as ours does. `replaceAsContractAsks`
// is the floor of what the edit contract requires over SFTP: the durable edit, with the file read again and compared
// before the rename (see the method). Every SFTP request sent is counted in `requests`.
import path from 'node:path';
import ssh2 from 'ssh2';
import type { SshBenchConfig } from './ssh-setup.js';

type Client = InstanceType<typeof ssh2.Client>;
type Sftp = Parameters<Parameters<Client['sftp']>[0]>[1];

const READ = 0x01;
const WRITE = 0x02;
const CREAT = 0x08;
const EXCL = 0x20;
/** OpenSSH's largest read and write (`limits@openssh.com`). */
const PART = 261_120;

function promised<T>(
  issue: (done: (error: Error | null | undefined, value?: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) =>
    issue((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

/** One ssh2 connection and its SFTP session, kept open across the calls. */
export class ReferenceConnection {
  /** SFTP requests sent so far (the caller may reset it). */
  requests = 0;

  private constructor(
    private readonly client: Client,
    private readonly sftp: Sftp,
  ) {}

  static async open(config: SshBenchConfig): Promise<ReferenceConnection> {
    const client = new ssh2.Client();
    const expectedKey = config.hostKey.split(' ')[1];
    await new Promise<void>((resolve, reject) => {
      client.once('ready', resolve).once('error', reject);
      client.connect({
        host: config.host,
        port: config.port,
        username: config.username,
        privateKey: config.privateKey,
        hostVerifier: (key: Buffer) => key.toString('base64') === expectedKey,
      });
      // As ours does: no Nagle delay on small requests.
      client.setNoDelay(true);
    });
    const sftp = await promised<Sftp>((done) => client.sftp(done));
    return new ReferenceConnection(client, sftp);
  }

  /** Runs `command` on an `exec` channel and returns what it printed on stdout. */
  exec(command: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.client.exec(command, (error, channel) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        channel.on('data', (chunk: Buffer) => chunks.push(chunk));
        channel.stderr.resume();
        channel.once('close', (code: number | null) =>
          code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${command} exited with ${code}`)),
        );
      });
    });
  }

  /** Sends one SFTP request, counted. */
  private send<T>(issue: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
    this.requests += 1;
    return promised(issue);
  }

  /**
   * A close sent, not waited for: its answer is in the promise (marked handled, so a failure surfaces where it is
   * awaited). OpenSSH's sftp-server handles requests in order, so what is sent after it finds the handle closed.
   */
  private closeLater(handle: Buffer): Promise<void> {
    const closed = this.send<void>((done) => this.sftp.close(handle, done));
    closed.catch(() => undefined);
    return closed;
  }

  /** Opens `file`, fstats it and reads it whole, the reads all in flight; the close is sent, not waited for. */
  private async readWhole(file: string): Promise<{ bytes: Buffer; closed: Promise<void> }> {
    const { sftp } = this;
    const handle = await this.send<Buffer>((done) => sftp.open(file, READ, done));
    const { size } = await this.send<{ size: number }>((done) => sftp.fstat(handle, done));
    const bytes = Buffer.alloc(size);
    const parts = Array.from({ length: Math.ceil(size / PART) }, (_, index) => index * PART);
    await Promise.all(
      parts.map((at) =>
        this.send<number>((done) =>
          sftp.read(handle, bytes, at, Math.min(PART, size - at), at, (error, read) => done(error, read)),
        ),
      ),
    );
    return { bytes, closed: this.closeLater(handle) };
  }

  /** Creates `temp` (exclusive) and writes `bytes` to it, the writes all in flight, then fsyncs it if `durable`. */
  private async writeTemp(temp: string, bytes: Buffer, durable: boolean): Promise<{ closed: Promise<void> }> {
    const { sftp } = this;
    const out = await this.send<Buffer>((done) => sftp.open(temp, WRITE | CREAT | EXCL, done));
    const writes = Array.from({ length: Math.ceil(bytes.length / PART) }, (_, index) => index * PART);
    await Promise.all(
      writes.map((at) =>
        this.send<void>((done) => sftp.write(out, bytes, at, Math.min(PART, bytes.length - at), at, done)),
      ),
    );
    if (durable) await this.send<void>((done) => sftp.ext_openssh_fsync(out, done));
    return { closed: this.closeLater(out) };
  }

  /** Opens `directory`; fsyncing it makes a rename in it survive a crash. */
  private openDirectory(directory: string): Promise<Buffer> {
    return this.send<Buffer>((done) => this.sftp.open(directory, READ, done));
  }

  /** Replaces the one `from` of `file` by `to`: read whole, written to a temp file beside it, renamed over it. */
  async replaceByHand(file: string, from: string, to: string, durable: boolean): Promise<void> {
    const { sftp } = this;
    const { bytes, closed } = await this.readWhole(file);
    await closed;
    const temp = `${file}.tmp-${process.pid}`;
    const written = await this.writeTemp(temp, replaceOnce(bytes, from, to, file), durable);
    await written.closed;
    await this.send<void>((done) => sftp.ext_openssh_rename(temp, file, done));
    if (durable) {
      const directory = await this.openDirectory(path.dirname(file));
      await this.send<void>((done) => sftp.ext_openssh_fsync(directory, done));
      await this.send<void>((done) => sftp.close(directory, done));
    }
  }

  /**
   * The floor of an edit as the contract asks it over SFTP (docs/writing.md; core's `applyFileChange`): the file read
   * whole; then, before the commit, read again and compared byte for byte (over SFTP times are whole seconds and
   * there is no change time: content decides); a temp file written and fsync'd; `posix-rename` over the file; the
   * directory fsync'd. No lock file, no hashing, no tool. What does not wait on an answer goes together, as
   * OpenSSH's server handles requests in order: the second read, the temp file and the directory's open are in flight
   * at once; no close is waited for before the next step; the rename, the directory's fsync and its close go out
   * together (the fsync then follows the rename, and is wasted only where the rename fails). The answers waited for,
   * in turn: open, fstat, reads; open, fstat, reads (the temp file's open, writes and fsync beside them); the rename
   * and what went with it: 7 round trips.
   */
  async replaceAsContractAsks(file: string, from: string, to: string): Promise<void> {
    const { sftp } = this;
    const first = await this.readWhole(file);
    const updated = replaceOnce(first.bytes, from, to, file);
    const temp = `${file}.tmp-${process.pid}`;
    const [again, written, directory] = await Promise.all([
      this.readWhole(file),
      this.writeTemp(temp, updated, true),
      this.openDirectory(path.dirname(file)),
    ]);
    if (!again.bytes.equals(first.bytes)) throw new Error(`${file} changed between the two reads`);
    await Promise.all([
      this.send<void>((done) => sftp.ext_openssh_rename(temp, file, done)),
      this.send<void>((done) => sftp.ext_openssh_fsync(directory, done)),
      this.send<void>((done) => sftp.close(directory, done)),
      first.closed,
      again.closed,
      written.closed,
    ]);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.client.once('close', () => resolve());
      this.client.end();
    });
  }
}

/** `bytes` with their one `from` replaced by `to` (UTF-8); throws unless `from` is in them exactly once. */
function replaceOnce(bytes: Buffer, from: string, to: string, file: string): Buffer {
  const text = bytes.toString('utf8');
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`${from} is not in ${file} exactly once`);
  return Buffer.from(text.slice(0, at) + to + text.slice(at + from.length));
}
