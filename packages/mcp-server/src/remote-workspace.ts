import os from 'node:os';
import {
  parseSshDestination,
  sshFileSystemAt,
  type SshDestination,
  type SshFileSystem,
} from '@kimi-tools/ssh';
import type { SshLogin } from './cli-args.js';
import {
  missingDirectoryMessage,
  notADirectoryMessage,
  remoteWorkspaceMessage,
  unreadableStatMessage,
} from './errors.js';

/** The workspace `--ssh` names, connected, with its directories checked on the host and made canonical. */
export interface RemoteWorkspace {
  fs: SshFileSystem;
  workDir: string;
  addDirs: string[];
  /** `user@host:port`. */
  host: string;
}

/**
 * Logs in as `ssh` would (sshFileSystemAt: `--identity`, else the agent and ~/.ssh's keys; `--host-key`, else
 * known_hosts) and checks the work dir and every `--add-dir` on the host. Resolves to the command line's error
 * message when one cannot be served; the connection is then closed.
 */
export async function openRemoteWorkspace(
  login: SshLogin,
  workDir: string,
  addDirs: readonly string[],
): Promise<RemoteWorkspace | string> {
  let destination: SshDestination;
  try {
    destination = parseSshDestination(login.destination, os.userInfo().username);
  } catch (error) {
    return `--ssh: ${(error as Error).message.replace(/^EINVAL: /, '')}`;
  }
  const { username, host, port } = destination;
  const target = `${username}@${host}:${port}`;
  let fs: SshFileSystem;
  try {
    fs = await sshFileSystemAt(login.destination, workDir, {
      ...(login.identityFile !== undefined ? { identityFile: login.identityFile } : {}),
      ...(login.hostKey !== undefined ? { hostKey: login.hostKey } : {}),
    });
  } catch (error) {
    return remoteWorkspaceMessage(target, workDir, (error as Error).message);
  }
  const canonical: string[] = [];
  for (const dir of addDirs) {
    const problem = await remoteDirectoryProblem(fs, dir);
    if (problem !== undefined) {
      await fs.close();
      return problem;
    }
    canonical.push(await fs.realpath(dir));
  }
  return {
    fs,
    workDir: fs.root,
    addDirs: canonical,
    host: target,
  };
}

/** Why an `--add-dir` on the host cannot be served, or `undefined` when it can. */
async function remoteDirectoryProblem(fs: SshFileSystem, dir: string): Promise<string | undefined> {
  try {
    if (!(await fs.stat(dir)).isDirectory()) return notADirectoryMessage('--add-dir', dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return missingDirectoryMessage('--add-dir', dir);
    return unreadableStatMessage('--add-dir', dir, (error as Error).message);
  }
  return undefined;
}
