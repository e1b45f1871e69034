// The tools over SSH (issue 30), on a loopback OpenSSH server, in one warm process with the connections open: ReadFile
// of a small file vs `cat` on an exec channel (goal ≤ 1.5×, ≤ 4 SFTP requests), and StrReplaceFile of a 1 MiB file
// vs the same edit by hand over SFTP (goal ≤ 1.5×, ≤ 12 requests) and vs the floor of what the edit contract requires
// (that edit with fsyncs and the file read again before the rename), the read benchmark's page deep in a 1 GiB log vs
// `tail | head` on an exec channel (goal ≤ 3×), and Grep and Glob on the search tree copied into the workspace vs
// ripgrep on an exec channel (goals ≤ 1.3× and ≤ 1.5×). Round trips are what a remote file system costs, so the notes
// give the SFTP requests of every call of ours, by kind, and of the edit's references.
import { fileURLToPath } from 'node:url';
import type { BenchContext, Benchmark, Row, RowResult } from '../harness/types.js';
import { GLOB_PATTERN } from './glob.js';
import { describeSearchTree } from './search-root.js';
import { sshUnavailableReason, startLoopbackWorkspace } from './ssh-setup.js';

const CHILD = fileURLToPath(new URL('./ssh-in-call-child.ts', import.meta.url));

/** The goals on the SFTP requests of one call of ours, by row. */
const REQUEST_GOALS: Readonly<Record<string, number>> = {
  'read-small': 4,
  'replace-1mib': 12,
  'replace-1mib-durable': 12,
  'replace-1mib-floor': 12,
};

async function prepare(context: BenchContext): Promise<Row[]> {
  if (sshUnavailableReason() !== undefined) return [];
  const config = await startLoopbackWorkspace(context);
  const child = (workload: string) => ({
    kind: 'node' as const,
    script: CHILD,
    args: [config, workload, String(context.runs)],
  });
  return [
    {
      kind: 'in-call',
      label: 'ReadFile of a 4 KiB file over SSH',
      referenceLabel: 'cat on an exec channel',
      goal: { time: 1.5 },
      child: child('read-small'),
    },
    {
      kind: 'in-call',
      label: 'StrReplaceFile, one edit in 1 MiB over SSH',
      referenceLabel: 'SFTP read + write temp + posix-rename by hand',
      goal: { time: 1.5 },
      child: child('replace-1mib'),
    },
    {
      kind: 'in-call',
      label: 'StrReplaceFile, one edit in 1 MiB over SSH (durable reference)',
      referenceLabel: 'the same by hand + fsync of the temp file and the directory',
      goal: { text: 'shown: what the fsyncs cost' },
      child: child('replace-1mib-durable'),
    },
    {
      kind: 'in-call',
      label: 'StrReplaceFile, one edit in 1 MiB over SSH, against the floor',
      referenceLabel:
        'floor: by hand as the contract asks (read, read again, temp + fsync, rename, fsync dir)',
      goal: { text: 'shown: ours over the floor of the contract' },
      child: child('replace-1mib-floor'),
    },
    {
      kind: 'in-call',
      label: 'Grep content mode on the search tree over SSH',
      referenceLabel: 'rg, same flags, on an exec channel',
      goal: { time: 1.3 },
      child: child('grep-content'),
    },
    {
      kind: 'in-call',
      label: 'Grep files mode on the search tree over SSH',
      referenceLabel: 'rg, same flags, on an exec channel',
      goal: { time: 1.3 },
      child: child('grep-files'),
    },
    {
      kind: 'in-call',
      label: `Glob \`${GLOB_PATTERN}\` on the search tree over SSH`,
      referenceLabel: `rg --files -g '${GLOB_PATTERN}' on an exec channel`,
      goal: { time: 1.5 },
      child: child('glob'),
    },
    {
      kind: 'in-call',
      label: 'ReadFile page at line 9,000,000 of 1 GiB over SSH, first read',
      referenceLabel: 'tail -n +N | head -n 1000 on an exec channel',
      goal: { time: 3 },
      child: child('page-1gib'),
    },
  ];
}

function requestNotes(result: RowResult): string {
  const workload = result.row.kind === 'in-call' ? result.row.child.args[1]! : '';
  const details = result.ours[0]?.details ?? {};
  const requests = details['requests'] ?? Number.NaN;
  const goal = REQUEST_GOALS[workload];
  const kinds = Object.entries(details)
    .filter(([key]) => key.startsWith('request:'))
    .map(([key, count]) => `${key.slice('request:'.length)} ${count}`)
    .join(', ');
  const counts =
    details['oursTotal'] === undefined
      ? ''
      : ` Glob listed ${details['oursTotal']} files, \`rg --files\` ${details['ripgrepTotal']} (its \`-g\` ` +
        'whitelist overrides ignore files).';
  const reference =
    details['referenceRequests'] === undefined
      ? ''
      : ` The reference: ${details['referenceRequests']} SFTP requests a call (median; ` +
        `${details['referenceRequestsMin']}–${details['referenceRequestsMax']}).`;
  return (
    `- ${result.row.label}: ${requests} SFTP requests a call (median; ${details['requestsMin']}–` +
    `${details['requestsMax']})${goal === undefined ? '' : `, goal ≤ ${goal}: ${requests <= goal ? 'met' : 'MISSED'}`}` +
    `. The last call: ${kinds || 'none'}.${counts}${reference}`
  );
}

async function notes(results: RowResult[], context: BenchContext): Promise<string[]> {
  const reason = sshUnavailableReason();
  if (reason !== undefined) return [`The SSH rows were ${reason}.`];
  return [
    'Ours: the tool on a runtime over `sshFileSystem` (one connection, SFTP), read state and locks included; the ' +
      'reference: ssh2 used directly over a second connection kept open (its own SFTP session). The server is ' +
      "OpenSSH on 127.0.0.1: a round trip costs what the loopback and sshd's processes cost, no network latency. " +
      `Grep and Glob search a copy of the ${describeSearchTree(context)} in the workspace; Grep runs the ` +
      "host's ripgrep (this machine's bundled one, as `rgPath`), the reference the same binary with the flags our " +
      'Grep passed (captured from a call).',
    ...results.map(requestNotes),
  ];
}

const sshBenchmark: Benchmark = {
  title: 'The tools over SSH, on a loopback OpenSSH server',
  description:
    'In one warm process with its connections open: `ReadFile` of a small file vs `cat` on an exec channel, ' +
    '`StrReplaceFile` of a 1 MiB file vs SFTP read, temp write and `posix-rename` by hand (and vs the floor of the ' +
    'contract: the same with fsyncs and the file read again before the rename), Grep and Glob on the ' +
    'search tree vs ripgrep on an exec channel, and the first `ReadFile` of the page at line 9,000,000 of the 1 GiB ' +
    'log vs `tail | head` on an exec channel, taking turns.',
  prepare,
  notes,
};

export default sshBenchmark;
