import type { ChildProcess } from 'node:child_process';
import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import { errnoError, failureOf } from './command-errors.js';
import type { CommandRunner } from './command-runner.js';

/**
 * An open file over a command runner: a small process holds a descriptor on the file for as long as it is open
 * (`exec 3<` or `3<>`), and every read, write and stat goes through `/proc/PID/fd/3`, so a rename over the path or an
 * unlink does not change what this open file is — as a descriptor behaves.
 */
export class HeldFile implements OpenFile {
  private constructor(
    private readonly runner: CommandRunner,
    private readonly holder: ChildProcess,
    private readonly fd: string,
    private readonly path: string,
    private readonly statOf: (path: string, follow: boolean) => Promise<FileStats>,
  ) {}

  /**
   * Opens `path` through a holder process: `redirect` is the shell redirection that opens descriptor 3 (`3<` to read,
   * `3<>` to update, `3>` under `set -C` to create exclusively). Resolves once the holder said it holds the file.
   */
  static async open(
    runner: CommandRunner,
    path: string,
    redirect: string,
    statOf: (path: string, follow: boolean) => Promise<FileStats>,
  ): Promise<HeldFile> {
    // `$$` is the holder's own id where it runs (inside a container too); `exec sleep` keeps that id and the descriptor.
    const script = `${redirect}"$1" || exit 1; echo $$; exec sleep 2147483647`;
    const holder = runner.start(['sh', '-c', script, 'sh', path], { stdin: 'ignore' });
    const pid = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      holder.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      holder.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      holder.once('error', reject);
      holder.once('close', (code) =>
        reject(failureOf({ code, stdout: Buffer.alloc(0), stderr: err }, 'open', path)),
      );
    });
    return new HeldFile(runner, holder, `/proc/${pid}/fd/3`, path, statOf);
  }

  async read(buffer: Uint8Array, offset: number, length: number, position: number) {
    const result = await this.runner.run([
      'dd',
      `if=${this.fd}`,
      'iflag=skip_bytes,count_bytes',
      `skip=${position}`,
      `count=${length}`,
      'status=none',
    ]);
    if (result.code !== 0) throw failureOf(result, 'read', this.path);
    buffer.set(result.stdout.subarray(0, length), offset);
    return { bytesRead: Math.min(length, result.stdout.length) };
  }

  async write(buffer: Uint8Array, offset: number, length: number, position: number) {
    const bytes = buffer.subarray(offset, offset + length);
    const args = [
      'dd',
      `of=${this.fd}`,
      'oflag=seek_bytes',
      `seek=${position}`,
      'conv=notrunc',
      'status=none',
    ];
    const result = await this.runner.run(args, bytes);
    if (result.code !== 0) throw failureOf(result, 'write', this.path);
    return { bytesWritten: length };
  }

  stat(): Promise<FileStats> {
    return this.statOf(this.fd, true);
  }

  async truncate(length: number): Promise<void> {
    const result = await this.runner.run(['truncate', '-s', String(length), '--', this.fd]);
    if (result.code !== 0) throw failureOf(result, 'ftruncate', this.path);
  }

  async sync(): Promise<void> {
    await this.runner.run(['sync', '--data', '--', this.fd]);
  }

  async chmod(mode: number): Promise<void> {
    const result = await this.runner.run(['chmod', (mode & 0o7777).toString(8), '--', this.fd]);
    if (result.code !== 0) throw failureOf(result, 'fchmod', this.path);
  }

  async chown(uid: number, gid: number): Promise<void> {
    const result = await this.runner.run(['chown', `${uid}:${gid}`, '--', this.fd]);
    if (result.code !== 0) throw errnoError('EPERM', 'Operation not permitted', 'fchown', this.path);
  }

  async close(): Promise<void> {
    if (this.holder.exitCode !== null || this.holder.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.holder.once('close', () => resolve());
      this.holder.kill('SIGKILL');
    });
  }
}
