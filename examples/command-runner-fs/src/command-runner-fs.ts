import { randomUUID } from 'node:crypto';
import {
  fileTypeTests,
  PRINT_START_MARKER,
  StartMarkerStream,
  type DirEntry,
  type FileStats,
  type FileSystem,
  type OpenFile,
} from '@kimi-tools/core/fs';
import { errnoError, failureOf } from './command-errors.js';
import type { CommandRunner } from './command-runner.js';
import { HeldFile } from './held-file.js';

/** The exit code of the guard that finds a program missing (see `exec`). */
const MISSING_PROGRAM = 200;

/** `stat -c` format: mode (hex), size, mtime and ctime (s.ns), inode, device, links, owner, group. */
const STAT_FORMAT = '%f %s %.9Y %.9Z %i %d %h %u %g';

/** Stats parsed from {@link STAT_FORMAT}: everything a Linux `stat` knows, to the nanosecond. */
function parseStats(line: string): FileStats {
  const [mode, size, mtime, ctime, ino, dev, nlink, uid, gid] = line.trim().split(' ');
  const modeBits = Number.parseInt(mode!, 16);
  const ns = (seconds: string) => {
    const [whole, fraction = ''] = seconds.split('.');
    return BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
  };
  const mtimeNs = ns(mtime!);
  return {
    size: Number(size),
    mode: modeBits,
    mtimeMs: Number(mtimeNs / 1000n) / 1000,
    mtimeNs,
    ctimeNs: ns(ctime!),
    ino: BigInt(ino!),
    dev: BigInt(dev!),
    nlink: Number(nlink),
    uid: Number(uid),
    gid: Number(gid),
    ...fileTypeTests(modeBits),
  };
}

/** `find -printf %y` letters → a directory entry. */
function entryOf(letter: string, name: string): DirEntry {
  return {
    name,
    isFile: () => letter === 'f',
    isDirectory: () => letter === 'd',
    isSymbolicLink: () => letter === 'l',
    isFIFO: () => letter === 'p',
    isSocket: () => letter === 's',
    isCharacterDevice: () => letter === 'c',
    isBlockDevice: () => letter === 'b',
  };
}

/** A path of this many bytes is too long for Linux (PATH_MAX); a far longer one would not even start a command (E2BIG). */
const MAX_PATH_BYTES = 4096;

/** Whether Linux refuses `path` as too long: it is answered as the kernel would, without running anything. */
function tooLong(path: string): boolean {
  return path.length >= MAX_PATH_BYTES / 3 && Buffer.byteLength(path) >= MAX_PATH_BYTES;
}

/** Options of {@link commandRunnerFileSystem}. */
export interface CommandRunnerFileSystemOptions {
  /** Where `~` points where the commands run (default `/root`). */
  homeDir?: string;
  /**
   * Whose files these are (`docker box`, a sandbox's id): what this host keeps for a workspace, a checkpoint store, is
   * keyed by it. Default: new for each backend, so two containers with one work dir never share a store; give the
   * same one to find it again from another process.
   */
  identity?: string;
}

/**
 * A `FileSystem` over nothing but a {@link CommandRunner}: every operation is one GNU coreutils command (docs/file-systems.md#over-a-command-runner),
 * each path its own argument after `--`. Writes are never made in place: core writes a temp file and renames it
 * (`mv -f -T`, rename(2)); exclusive create is the shell's `set -C`; open files are descriptors held by a process.
 */
export function commandRunnerFileSystem(
  runner: CommandRunner,
  options: CommandRunnerFileSystemOptions = {},
): FileSystem {
  const refuseLong = (op: string, ...paths: string[]) => {
    const long = paths.find(tooLong);
    if (long !== undefined) throw errnoError('ENAMETOOLONG', 'File name too long', op, long);
  };
  const must = async (op: string, path: string, argv: string[], stdin?: Uint8Array) => {
    refuseLong(op, ...argv);
    const result = await runner.run(argv, stdin);
    if (result.code !== 0) throw failureOf(result, op, path);
    return result.stdout.toString('utf8');
  };
  const statOf = async (path: string, follow: boolean) =>
    parseStats(
      await must(follow ? 'stat' : 'lstat', path, [
        'stat',
        ...(follow ? ['-L'] : []),
        '-c',
        STAT_FORMAT,
        '--',
        path,
      ]),
    );
  const openHeld = async (path: string, redirect: string): Promise<OpenFile> => {
    refuseLong('open', path);
    return HeldFile.open(runner, path, redirect, statOf);
  };

  return {
    name: 'command-runner',
    identity: options.identity ?? `command-runner ${randomUUID()}`,
    platform: 'linux',
    homeDir: options.homeDir ?? '/root',
    capabilities: {
      atomicReplace: true,
      exclusiveCreate: true,
      fsync: true,
      timeResolutionMs: 0.000001,
      inodes: true,
      ctime: true,
      linkCounts: true,
      // The commands' processes are not this machine's: a lock's holder is judged by its token and age.
      localProcesses: false,
      exec: true,
    },
    stat: (path) => statOf(path, true),
    lstat: (path) => statOf(path, false),
    realpath: async (path) =>
      (await must('realpath', path, ['realpath', '-e', '--', path])).replace(/\n$/, ''),
    readlink: async (path) => {
      if (!(await statOf(path, false)).isSymbolicLink())
        throw errnoError('EINVAL', 'Invalid argument', 'readlink', path);
      return (await must('readlink', path, ['readlink', '--', path])).replace(/\n$/, '');
    },
    readdir: async (path) => {
      if (!(await statOf(path, true)).isDirectory())
        throw errnoError('ENOTDIR', 'Not a directory', 'scandir', path);
      const listing = await must('scandir', path, [
        'find',
        '-H',
        path,
        '-mindepth',
        '1',
        '-maxdepth',
        '1',
        '-printf',
        '%y %f\\0',
      ]);
      return listing
        .split('\0')
        .filter(Boolean)
        .map((line) => entryOf(line[0]!, line.slice(2)));
    },
    open: async (path, mode) => {
      const stats = await statOf(path, true);
      if (stats.isDirectory()) throw errnoError('EISDIR', 'Is a directory', 'open', path);
      // Opening a FIFO for reading would wait for a writer: read-write opens it at once (Linux), and it is never read.
      const redirect = mode === 'update' || stats.isFIFO() ? 'exec 3<>' : 'exec 3<';
      return openHeld(path, redirect);
    },
    create: async (path, mode = 0o666) => {
      // noclobber makes `>` open with O_EXCL (a dangling link is never followed); `3<>` then reopens it read-write.
      const file = await openHeld(path, 'set -C; exec 3>"$1" || exit 1; exec 3<>').catch(
        async (error: unknown) => {
          // The shell words some failures by what it tried (`cannot open d: Is a directory` for an existing directory,
          // `Directory nonexistent` for a parent that is a file): what the paths are tells the real code.
          const exists = await statOf(path, false).then(
            () => true,
            () => false,
          );
          if (exists) throw errnoError('EEXIST', 'File exists', 'open', path);
          const parent = path.slice(0, path.lastIndexOf('/')) || '/';
          const parentStats = await statOf(parent, true).catch(() => undefined);
          if (parentStats && !parentStats.isDirectory())
            throw errnoError('ENOTDIR', 'Not a directory', 'open', path);
          throw error;
        },
      );
      // The shell made it with 0666 trimmed by its umask; the asked mode, trimmed the same way (0022), is set after.
      await file.chmod(mode & ~0o022);
      return file;
    },
    rename: async (from, to) => {
      refuseLong('rename', from, to);
      const result = await runner.run(['mv', '-f', '-T', '--', from, to]);
      // rename(2) of a name onto itself (or onto another name of the same file) changes nothing; mv refuses it.
      if (result.code !== 0 && !result.stderr.includes('are the same file'))
        throw failureOf(result, 'rename', from);
    },
    unlink: async (path) => {
      if ((await statOf(path, false)).isDirectory())
        throw errnoError('EISDIR', 'Is a directory', 'unlink', path);
      await must('unlink', path, ['unlink', '--', path]);
    },
    mkdir: async (path, { recursive = false, mode = 0o777 } = {}) => {
      await must('mkdir', path, [
        'mkdir',
        ...(recursive ? ['-p'] : []),
        '-m',
        (mode & ~0o022).toString(8),
        '--',
        path,
      ]);
    },
    rmdir: async (path) => {
      await must('rmdir', path, ['rmdir', '--', path]);
    },
    chmod: async (path, mode) => {
      await must('chmod', path, ['chmod', (mode & 0o7777).toString(8), '--', path]);
    },
    utimes: async (path, atime, mtime) => {
      await statOf(path, true); // touch would create a missing file

      await must('utime', path, ['touch', '-c', '-a', '-d', `@${atime}`, '--', path]);
      await must('utime', path, ['touch', '-c', '-m', '-d', `@${mtime}`, '--', path]);
    },
    symlink: async (target, path) => {
      await must('symlink', path, ['ln', '-s', '-T', '--', target, path]);
    },
    link: async (existing, path) => {
      await must('link', path, ['ln', '-T', '--', existing, path]);
    },
    syncDirectory: async (path) => {
      await runner.run(['sync', '--', path]);
    },
    exec: (command, args, execOptions = {}) => {
      const variables = Object.entries(execOptions.env ?? {});
      const unset = variables.flatMap(([name, value]) => (value === undefined ? ['-u', name] : []));
      const set = variables.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]));
      // A program that is not there exits 200 from the guard, which `exit` turns into ENOENT as Node's spawn does;
      // one that is there is announced by core's start marker (with its process id where it runs) just before it runs.
      const script = `command -v -- "$1" >/dev/null 2>&1 || exit ${MISSING_PROGRAM}; ${PRINT_START_MARKER}; exec "$@"`;
      const guard = ['sh', '-c', script, 'sh'];
      const cd =
        execOptions.cwd === undefined
          ? []
          : ['sh', '-c', 'cd -- "$1" && shift && exec "$@"', 'sh', execOptions.cwd];
      const argv = [...cd, 'env', ...unset, '--', ...set, ...guard, command, ...args];
      const child = runner.start(argv, { stdin: execOptions.stdin ?? 'ignore' });
      const stdout = child.stdout!.pipe(new StartMarkerStream());
      return {
        stdin: child.stdin,
        stdout,
        stderr: child.stderr!,
        started: stdout.started,
        exit: new Promise((resolve, reject) => {
          child.once('error', reject);
          child.once('close', (code, signal) => {
            if (code === MISSING_PROGRAM)
              reject(errnoError('ENOENT', 'No such file or directory', 'spawn', command));
            else resolve({ code, signal });
          });
        }),
        kill: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
        get pid() {
          return stdout.pid;
        },
      };
    },
  };
}
