// @kimi-tools/ssh: the file tools on a remote workspace, over one SSH connection.

export { sshFileSystem, type SshFileSystem } from './ssh-file-system.js';
export type { SshFileSystemOptions } from './options.js';
export { sshFileSystemAt, type SshLoginOptions } from './ssh-file-system-at.js';
export { parseSshDestination, type SshDestination } from './destination.js';
