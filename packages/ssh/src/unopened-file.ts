import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import { errnoError } from './errno-error.js';

/**
 * What `open(path, 'read')` returns for a directory, a FIFO or a socket, without opening it on the server: OpenSSH's
 * SFTP server is one process serving requests one by one, and opening a FIFO there waits for a writer, which would
 * stall every later call of the connection. The stats are the ones taken just before; reading fails as reading such a
 * file would (a directory `EISDIR`, the others `EAGAIN`: there is nothing to read without waiting).
 */
export class UnopenedFile implements OpenFile {
  constructor(
    private readonly path: string,
    private readonly stats: FileStats,
  ) {}

  read(): Promise<{ bytesRead: number }> {
    return Promise.reject(errnoError(this.stats.isDirectory() ? 'EISDIR' : 'EAGAIN', 'read', [this.path]));
  }
  write(): Promise<{ bytesWritten: number }> {
    return Promise.reject(errnoError('EBADF', 'write', [this.path]));
  }
  stat(): Promise<FileStats> {
    return Promise.resolve(this.stats);
  }
  truncate(): Promise<void> {
    return Promise.reject(errnoError('EBADF', 'ftruncate', [this.path]));
  }
  sync(): Promise<void> {
    return Promise.resolve();
  }
  chmod(): Promise<void> {
    return Promise.reject(errnoError('EBADF', 'fchmod', [this.path]));
  }
  chown(): Promise<void> {
    return Promise.reject(errnoError('EBADF', 'fchown', [this.path]));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
