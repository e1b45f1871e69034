// The reference side of the SSH rows: ssh2 used directly over one connection kept open, as a script would do it by
// hand. `exec` is `ssh host COMMAND` without the connection set-up; `replaceByHand` is the least an atomic edit over
// SFTP sends: open, fstat, the reads all in flight, close; a temp file created, the writes all in flight, close; one
// `posix-rename@openssh.com`. No lock and no checks; `durable` adds what makes it survive a crash of the host (the
// temp file's `fsync@openssh.com` before the rename, the directory's after it), as ours does.
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

  /** Replaces the one `from` of `file` by `to`: read whole, written to a temp file beside it, renamed over it. */
  async replaceByHand(file: string, from: string, to: string, durable: boolean): Promise<void> {
    const { sftp } = this;
    const handle = await promised<Buffer>((done) => sftp.open(file, READ, done));
    const { size } = await promised<{ size: number }>((done) => sftp.fstat(handle, done));
    const bytes = Buffer.alloc(size);
    const parts = Array.from({ length: Math.ceil(size / PART) }, (_, index) => index * PART);
    await Promise.all(
      parts.map((at) =>
        promised<number>((done) =>
          sftp.read(handle, bytes, at, Math.min(PART, size - at), at, (error, read) => done(error, read)),
        ),
      ),
    );
    await promised<void>((done) => sftp.close(handle, done));
    const text = bytes.toString('utf8');
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`${from} is not in ${file} exactly once`);
    const updated = Buffer.from(text.slice(0, at) + to + text.slice(at + from.length));
    const temp = `${file}.tmp-${process.pid}`;
    const out = await promised<Buffer>((done) => sftp.open(temp, WRITE | CREAT | EXCL, done));
    const writes = Array.from({ length: Math.ceil(updated.length / PART) }, (_, index) => index * PART);
    await Promise.all(
      writes.map((at) =>
        promised<void>((done) => sftp.write(out, updated, at, Math.min(PART, updated.length - at), at, done)),
      ),
    );
    if (durable) await promised<void>((done) => sftp.ext_openssh_fsync(out, done));
    await promised<void>((done) => sftp.close(out, done));
    await promised<void>((done) => sftp.ext_openssh_rename(temp, file, done));
    if (durable) {
      const directory = await promised<Buffer>((done) => sftp.open(path.dirname(file), READ, done));
      await promised<void>((done) => sftp.ext_openssh_fsync(directory, done));
      await promised<void>((done) => sftp.close(directory, done));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.client.once('close', () => resolve());
      this.client.end();
    });
  }
}
