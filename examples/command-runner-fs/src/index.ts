// A file-system backend over a command runner: what a host writes for files in a container or a sandbox.
export { commandRunnerFileSystem, type CommandRunnerFileSystemOptions } from './command-runner-fs.js';
export { prefixRunner, type CommandRunner, type CommandResult } from './command-runner.js';
