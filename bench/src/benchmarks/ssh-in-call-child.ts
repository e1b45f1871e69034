// The SSH rows, in one warm process with its connections open: ours through `sshFileSystem` (the tools on a runtime
// over SFTP), the reference through a second ssh2 connection of its own (an `exec` channel, or SFTP requests by hand),
// taking turns. The SFTP requests of every call of ours are counted and reported.
// Usage: ssh-in-call-child.ts CONFIG_FILE WORKLOAD PAIRS, WORKLOAD being `read-small`, `replace-1mib` (the reference
// without fsync), `replace-1mib-durable` (the reference with the fsyncs ours makes) or `page-1gib`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stampOf } from '@kimi-tools/core/toolkit';
import { sshFileSystem } from '@kimi-tools/ssh';
import { reportDetails, runPairs } from '../harness/child-report.js';
import { buildReadFile, buildStrReplaceFile } from '../tools.js';
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
  } else if (workload === 'replace-1mib' || workload === 'replace-1mib-durable') {
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
    await runPairs(
      Number(pairs),
      () =>
        counted(async () => {
          const [from, to] = ours++ % 2 === 0 ? SSH_MARKERS : [...SSH_MARKERS].reverse();
          const result = await tool.call({ path: config.oursFile, edit: { old: from, new: to } });
          if (result.isError) throw new Error(`StrReplaceFile failed: ${result.message}`);
        }),
      () => {
        const [from, to] = theirs++ % 2 === 0 ? SSH_MARKERS : [...SSH_MARKERS].reverse();
        return reference.replaceByHand(config.referenceFile, from!, to!, workload.endsWith('-durable'));
      },
    );
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
  } else {
    throw new Error(`unknown workload ${workload}`);
  }
  // The first call is the untimed warm-up of `runPairs`.
  const timed = perCall.slice(1);
  const counts = timed.map((names) => names.length).sort((a, b) => a - b);
  const last = timed.at(-1) ?? [];
  const kinds: Record<string, number> = {};
  for (const name of last) kinds[`request:${name}`] = (kinds[`request:${name}`] ?? 0) + 1;
  reportDetails({
    requests: counts[Math.floor(counts.length / 2)] ?? Number.NaN,
    requestsMin: counts[0] ?? Number.NaN,
    requestsMax: counts.at(-1) ?? Number.NaN,
    ...kinds,
  });
} finally {
  await Promise.all([fs.close(), reference.close()]);
}
