// The loopback SSH server of the SSH rows, started as the tests start theirs (the test kit's `startSshServer`: a real
// OpenSSH server on 127.0.0.1, keys made for the run), and the files its workspace holds.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRipgrep } from '@kimi-tools/search';
import { ensureDataFile } from '../harness/bench-data.js';
import { randomText } from '../harness/seeded-text.js';
import type { BenchContext } from '../harness/types.js';
import { DEEP_LINE, ensureAccessLog, PAGE_LINES } from './read-file.js';
import { searchRoot } from './search-root.js';

/** What the child process connects with, and the files it works on (absolute paths on the server). */
export interface SshBenchConfig {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** The server's host key line: the only key either side accepts. */
  hostKey: string;
  root: string;
  smallFile: string;
  oursFile: string;
  referenceFile: string;
  /** The 1 GiB log of the read benchmark, and the page read in it. */
  log: string;
  line: number;
  pageLines: number;
  /** The search tree copied into the workspace (the corpus with `--corpus`), Grep's pattern on it. */
  searchTree: string;
  searchPattern: string;
  /** ripgrep on the host (this machine's bundled one): Grep's `rgPath`, and the reference's program. */
  rgPath: string;
}

/** The two markers the replace rows swap: exactly one of them is in the file at any time. */
export const SSH_MARKERS = ['const sshBenchMarker = "first";', 'const sshBenchMarker = "other";'] as const;

/** Where the server programs are; without them the rows are skipped, and this says why. */
const SERVER_PROGRAMS = ['/usr/sbin/sshd', '/usr/lib/openssh/sftp-server'];

/** Why the SSH rows cannot run here, or `undefined` when they can. */
export function sshUnavailableReason(): string | undefined {
  const missing = SERVER_PROGRAMS.filter((program) => !existsSync(program));
  return missing.length === 0
    ? undefined
    : `skipped: ${missing.join(' and ')} missing (apt-get install -y openssh-server)`;
}

/**
 * Starts the loopback server (stopped when the benchmark ends) and makes its workspace in the data directory: a
 * small source file, and two fresh copies of a 1 MiB text file holding the first marker once. Returns the file
 * holding the {@link SshBenchConfig}.
 */
export async function startLoopbackWorkspace(context: BenchContext): Promise<string> {
  const { startSshServer } = await import('@kimi-tools/test-kit/ssh-server');
  const root = path.join(await realpath(context.dataDir), 'remote');
  await mkdir(root, { recursive: true });
  const small = await ensureDataFile(path.join(context.dataDir, 'small-4kib-v1.ts'), () =>
    randomText(61, 4096, 80),
  );
  const half = 512 * 1024;
  const oneMib = await ensureDataFile(
    path.join(context.dataDir, 'source-1mib-v1.txt'),
    () =>
      `${randomText(62, half, 80)}${SSH_MARKERS[0]}\n${randomText(63, half - SSH_MARKERS[0].length - 1, 80)}`,
  );
  const tree = await searchRoot(context);
  const rgPath = await findRipgrep(undefined);
  if (rgPath === null) throw new Error('ripgrep not found: install the dependencies of @kimi-tools/search');
  const config: Omit<SshBenchConfig, 'host' | 'port' | 'username' | 'privateKey' | 'hostKey'> = {
    root,
    // Named after the tree's path: a run with `--corpus` and one without each keep their own copy.
    searchTree: await copyTree(tree.root, path.join(root, `search-tree-${shortHash(tree.root)}`), context),
    searchPattern: tree.contentPattern,
    rgPath,
    log: await ensureAccessLog(context.dataRoot, context.log),
    line: DEEP_LINE,
    pageLines: PAGE_LINES,
    smallFile: path.join(root, 'small.ts'),
    oursFile: path.join(root, 'ours-1mib.txt'),
    referenceFile: path.join(root, 'reference-1mib.txt'),
  };
  await copyFile(small, config.smallFile);
  await copyFile(oneMib, config.oursFile);
  await copyFile(oneMib, config.referenceFile);

  // A real host's sessions: the user's shell reads its start-up files (the remote `python3`, `PATH`, and the time
  // they take are that host's), unlike the tests' server.
  const server = await startSshServer({ shellStartupFiles: true });
  context.defer(() => server.stop());
  const configFile = path.join(server.dir, 'bench-config.json');
  const full: SshBenchConfig = {
    host: server.host,
    port: server.port,
    username: server.username,
    privateKey: server.privateKey,
    hostKey: server.hostKeys[0]!.line,
    ...config,
  };
  await writeFile(configFile, JSON.stringify(full), { mode: 0o600 });
  return configFile;
}

/**
 * A copy of the search tree inside the workspace (made once, kept: `cp -a` keeps its links and ignore files), so Grep
 * and Glob search the same files over SSH as the `grep` and `glob` benchmarks do on the local disk.
 */
async function copyTree(source: string, copy: string, context: BenchContext): Promise<string> {
  if (existsSync(copy)) return copy;
  context.log(`  copying ${source} to ${copy} (once)`);
  const partial = `${copy}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await promisify(execFile)('cp', ['-a', '--', source, partial]);
  await rename(partial, copy);
  return copy;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
