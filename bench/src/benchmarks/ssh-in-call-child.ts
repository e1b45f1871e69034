// The SSH rows, in one warm process with its connections open: ours through `sshFileSystem` (the tools on a runtime
// over SFTP), the reference through a second ssh2 connection of its own (an `exec` channel, or SFTP requests by hand),
// taking turns. The SFTP requests of every call of ours are counted and reported.
// Usage: ssh-in-call-child.ts CONFIG_FILE WORKLOAD PAIRS, WORKLOAD being `read-small`, `replace-1mib` (the reference
// without fsync), `replace-1mib-durable` (the reference with the fsyncs ours makes), `replace-1mib-floor` (the
// reference the floor of what the edit contract requires: read, read again, temp + fsync, rename, fsync of the
// directory), `page-1gib`, `grep-content`, `grep-files` or `glob`. For the replace workloads the reference's SFTP
// requests a call are reported too.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stampOf } from '@kimi-tools/core/toolkit';
import { sshFileSystem } from '@kimi-tools/ssh';
import { reportDetails, runPairs } from '../harness/child-report.js';
import { buildGlob, buildGrep, buildReadFile, buildStrReplaceFile } from '../tools.js';
import { GLOB_PATTERN, ripgrepFilesArgs } from './glob.js';
import { checkPage } from './read-file-page.js';
import { ReferenceConnection } from './ssh-reference.js';
import { SSH_MARKERS, type SshBenchConfig } from './ssh-setup.js';

const [configFile, workload, pairs] = process.argv.slice(2);
if (configFile === undefined || workload === undefined || pairs === undefined) {
  throw new Error('usage: ssh-in-call-child.ts CONFIG_FILE WORKLOAD PAIRS');
}
const config = JSON.parse(await readFile(configFile, 'utf8')) as SshBenchConfig;

const requests: string[] = [];
const fs = await sshFileSystem({
  host: config.host,
  port: config.port,
  username: config.username,
  privateKey: config.privateKey,
  hostKey: config.hostKey,
  root: config.root,
  onRequest: (request) => requests.push(request),
});
const reference = await ReferenceConnection.open(config);

/** A word for a POSIX shell: single-quoted, so nothing in it is read by the shell. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * How our Grep runs ripgrep on the host for `args`: one call with a stand-in for ripgrep (a script on the host, which
 * is this machine) that records its working directory and arguments, so the reference runs exactly our flags.
 */
async function ripgrepCallOf(args: {
  pattern: string;
  output_mode: 'content' | 'files_with_matches';
}): Promise<{ cwd: string; args: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kimi-bench-ssh-rg-'));
  try {
    const record = path.join(dir, 'call');
    const wrapper = path.join(dir, 'rg');
    await writeFile(
      wrapper,
      `#!/bin/sh\nprintf '%s\\0' "$(pwd -P)" "$@" > ${quoted(record)}\nexec ${quoted(config.rgPath)} "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    const tool = await buildGrep(config.searchTree, { fs, rgPath: wrapper });
    const result = await tool.call(args);
    if (result.isError) throw new Error(`Grep failed: ${result.message}`);
    const [cwd, ...rest] = (await readFile(record, 'utf8')).split('\0').slice(0, -1);
    return { cwd: cwd!, args: rest };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The StrReplaceFile workloads: ours the same, the reference by hand without fsync, with them, and the floor. */
const REPLACE_WORKLOADS = ['replace-1mib', 'replace-1mib-durable', 'replace-1mib-floor'];

/** The median, least and most of `counts` (`NaN` for none). */
function medianMinMax(counts: readonly number[]): [number, number, number] {
  const sorted = [...counts].sort((a, b) => a - b);
  return [
    sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    sorted[0] ?? Number.NaN,
    sorted.at(-1) ?? Number.NaN,
  ];
}

/** The requests of every call of ours, by name, to report the median and the kinds of the last one. */
const perCall: string[][] = [];
async function counted(call: () => Promise<void>): Promise<void> {
  requests.length = 0;
  await call();
  perCall.push([...requests]);
}

try {
  if (workload === 'read-small') {
    const tool = await buildReadFile(config.root, { fs });
    const size = Buffer.byteLength(await readFile(config.smallFile, 'utf8'));
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const result = await tool.call({ path: config.smallFile });
          if (result.isError) throw new Error(`ReadFile failed: ${result.message}`);
        }),
      async () => {
        const bytes = await reference.exec(`cat -- '${config.smallFile}'`);
        if (bytes.length !== size) throw new Error(`cat printed ${bytes.length} bytes, not ${size}`);
      },
    );
  } else if (REPLACE_WORKLOADS.includes(workload)) {
    // Each side flips one marker of its own copy, back and forth: every call is one unique edit of the whole file.
    const stamp = await stampOf(fs, config.oursFile);
    if (typeof stamp === 'string') throw new Error(`${config.oursFile} is ${stamp}`);
    const tool = await buildStrReplaceFile(config.root, [{ realPath: config.oursFile, snapshot: stamp }], {
      fs,
    });
    // The server is this machine: which marker each copy holds now (an earlier row flipped them) is read here.
    const flips = async (file: string) => ((await readFile(file, 'utf8')).includes(SSH_MARKERS[0]) ? 0 : 1);
    let ours = await flips(config.oursFile);
    let theirs = await flips(config.referenceFile);
    const referenceRequests: number[] = [];
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const [from, to] = ours++ % 2 === 0 ? SSH_MARKERS : [...SSH_MARKERS].reverse();
          const result = await tool.call({ path: config.oursFile, edit: { old: from, new: to } });
          if (result.isError) throw new Error(`StrReplaceFile failed: ${result.message}`);
        }),
      async () => {
        const [from, to] = theirs++ % 2 === 0 ? SSH_MARKERS : [...SSH_MARKERS].reverse();
        reference.requests = 0;
        if (workload === 'replace-1mib-floor')
          await reference.replaceAsContractAsks(config.referenceFile, from!, to!);
        else await reference.replaceByHand(config.referenceFile, from!, to!, workload.endsWith('-durable'));
        referenceRequests.push(reference.requests);
      },
    );
    // The first call is the untimed warm-up of `runPairs`.
    const [median, min, max] = medianMinMax(referenceRequests.slice(1));
    reportDetails({ referenceRequests: median, referenceRequestsMin: min, referenceRequestsMax: max });
  } else if (workload === 'page-1gib') {
    // A first read each time (a fresh runtime: no line index yet), as `tail` has none either.
    const args = { path: config.log, line_offset: config.line, n_lines: config.pageLines };
    const tail = `tail -n +${config.line} -- '${config.log}' | head -n ${config.pageLines}`;
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const tool = await buildReadFile(path.dirname(config.log), { fs });
          checkPage(await tool.call(args), config.line);
        }),
      async () => {
        const page = await reference.exec(tail);
        if (!page.toString('latin1').startsWith('2024-')) throw new Error('tail printed no page');
      },
    );
  } else if (workload === 'grep-content' || workload === 'grep-files') {
    const mode = workload === 'grep-content' ? 'content' : 'files_with_matches';
    const args = { pattern: config.searchPattern, output_mode: mode } as const;
    const call = await ripgrepCallOf(args);
    const tool = await buildGrep(config.searchTree, { fs, rgPath: config.rgPath });
    // Standard input closed, as our Grep's is: ripgrep given no path would search a piped one.
    // Standard input closed, as our Grep's is: ripgrep given no path searches a piped one.
    const command = `cd -- ${quoted(call.cwd)} && exec ${[config.rgPath, ...call.args].map(quoted).join(' ')} </dev/null`;
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const result = await tool.call(args);
          if (result.isError || result.extras?.['search'] !== 'ripgrep')
            throw new Error(`Grep failed or ran no ripgrep: ${result.message}`);
        }),
      () => reference.exec(command),
    );
  } else if (workload === 'glob') {
    const tool = await buildGlob(config.searchTree, { fs });
    const args = [config.rgPath, ...ripgrepFilesArgs(GLOB_PATTERN)];
    const command = `cd -- ${quoted(config.searchTree)} && exec ${args.map(quoted).join(' ')} </dev/null`;
    let oursTotal = 0;
    let ripgrepTotal = 0;
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const result = await tool.call({ pattern: GLOB_PATTERN, include_dirs: false });
          if (result.isError) throw new Error(`Glob failed: ${result.message}`);
          oursTotal = Number(result.extras?.['total'] ?? -1);
        }),
      async () => {
        const listed = await reference.exec(command);
        ripgrepTotal = listed.toString('utf8').split('\n').filter(Boolean).length;
      },
    );
    reportDetails({ oursTotal, ripgrepTotal });
  } else {
    throw new Error(`unknown workload ${workload}`);
  }
  // The first call is the untimed warm-up of `runPairs`.
  const timed = perCall.slice(1);
  const [median, min, max] = medianMinMax(timed.map((names) => names.length));
  const last = timed.at(-1) ?? [];
  const kinds: Record<string, number> = {};
  for (const name of last) kinds[`request:${name}`] = (kinds[`request:${name}`] ?? 0) + 1;
  reportDetails({ requests: median, requestsMin: min, requestsMax: max, ...kinds });
} finally {
  await Promise.all([fs.close(), reference.close()]);
}
