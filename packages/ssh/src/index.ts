// @kimi-tools/ssh: the file tools on a remote workspace, over one SSH connection.

export { sshFileSystem, type SshFileSystem } from './ssh-file-system.js';
export type { SshFileSystemOptions } from './options.js';
