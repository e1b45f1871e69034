import { promises as nodeFs } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { localFileSystem, type ExecProcess, type StoredLineScanRequest } from '@kimi-tools/core/fs';
import { scanLines } from '@kimi-tools/core/toolkit';
import { ReadFile } from '@kimi-tools/read';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import { HostPython } from './host-line-scan.js';
import type { SshFileSystem } from './ssh-file-system.js';

// ReadFile's line index made by a scan on the host (its Python) instead of by reading the whole file over SFTP: it
// must find exactly what core's own scan finds, byte for byte, and nothing the caller did not open.
const ssh = useSshServer();
let tree: TempWorkspace;
let fs: SshFileSystem;
let requests: string[];
beforeAll(async () => {
  tree = await createTempWorkspace();
  requests = [];
  fs = await ssh.connect(tree.workDir, { hostScanMinBytes: 0, onRequest: (name) => requests.push(name) });
});
afterAll(async () => {
  await fs?.close();
  await tree?.cleanup();
});

const UTF8 = { encoding: 'utf-8', bom: true };
const request = (end: number, bom = true): StoredLineScanRequest => ({
  end,
  bom: bom ? Buffer.from([0xef, 0xbb, 0xbf]) : new Uint8Array(0),
  hash: true,
  findNulByte: true,
  checkUtf8: true,
  checkpointBytes: 1,
});

/** Lines as core's scan delivers them from `start` (line 1 at 0 by default), each `number:text`. */
async function linesFrom(file: string, end: number, start?: { line: number; offset: number }) {
  const handle = await localFileSystem.open(file, 'read');
  const lines: string[] = [];
  try {
    await scanLines(handle, {
      encoding: UTF8,
      end,
      ...(start ? { start } : {}),
      onLine: (line) => (lines.push(`${line.number}:${line.text}:${line.terminated}`), true),
    });
  } finally {
    await handle.close();
  }
  return lines;
}

describe('the line scan on the host', () => {
  test('finds what core’s scan finds, whatever the breaks, the bytes and where the reads cut them', async () => {
    // Reads of a few bytes and blocks of fewer: `\r\n`, characters and the byte order mark cut between two.
    const piece = fc.constantFrom(
      ...['a', 'bc', '\n', '\r', '\r\n', '\0', 'é', '€', '\u{1F600}', '\uFEFF'].map((text) =>
        Buffer.from(text),
      ),
      Buffer.from([0xff]),
      Buffer.from([0xc3]),
      Buffer.from([0xe2, 0x82]),
      Buffer.from([0xed, 0xa0, 0x80]),
    );
    const file = tree.at('scanned.txt');
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (pieces, chunk, block, bom) => {
          const bytes = Buffer.concat(pieces);
          await nodeFs.writeFile(file, bytes);
          const stats = await localFileSystem.stat(file);
          const python = new HostPython(
            { exec: fs.exec, program: 'python3', scanMinBytes: 0, startTimeoutMs: 20_000 },
            { chunk, block },
          );
          const found = await python.scanLines(file, stats, request(bytes.length, bom));
          const handle = await localFileSystem.open(file, 'read');
          const core = await scanLines(handle, {
            encoding: { encoding: 'utf-8', bom },
            end: bytes.length,
            countToEnd: true,
            findNulByte: true,
            checkUtf8: true,
          }).finally(() => handle.close());
          expect(found).toBeDefined();
          expect([found!.totalLines, found!.nulByte, found!.notUtf8, found!.hash]).toEqual([
            core.totalLines,
            core.nulByte,
            core.notUtf8,
            createHash('sha256').update(bytes).digest('hex'),
          ]);
          // Every checkpoint starts the very lines core's scan gives from the start of the file.
          const all = await linesFrom(file, bytes.length);
          expect(found!.checkpoints[0]).toEqual({ line: 1, offset: 0 });
          for (const checkpoint of found!.checkpoints.slice(1)) {
            expect(bytes[checkpoint.offset - 1]).toBe(10);
            expect(await linesFrom(file, bytes.length, checkpoint)).toEqual(all.slice(checkpoint.line - 1));
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);

  test('gives nothing for a version other than the one opened, or for a file below the size asked', async () => {
    const file = await tree.write('version.txt', 'one\ntwo\n');
    const stats = await localFileSystem.stat(file);
    const python = new HostPython({
      exec: fs.exec,
      program: 'python3',
      scanMinBytes: 0,
      startTimeoutMs: 20_000,
    });
    expect(await python.scanLines(file, stats, request(8))).toMatchObject({ totalLines: 2 });
    // Opened at another size (the file changed since), or at another modification time: not this version.
    expect(await python.scanLines(file, { ...stats, size: 9 }, request(9))).toBeUndefined();
    expect(
      await python.scanLines(file, { ...stats, mtimeMs: stats.mtimeMs - 5000 }, request(8)),
    ).toBeUndefined();
    const small = new HostPython({
      exec: fs.exec,
      program: 'python3',
      scanMinBytes: 9,
      startTimeoutMs: 20_000,
    });
    expect(await small.scanLines(file, stats, request(8))).toBeUndefined();
  });

  test('without Python on the host, gives nothing, and does not ask again', async () => {
    const file = await tree.write('no-python.txt', 'one\n');
    const stats = await localFileSystem.stat(file);
    let runs = 0;
    const python = new HostPython({
      exec: (command, args) => {
        runs++;
        return fs.exec(command, args);
      },
      program: '/nonexistent/python3',
      scanMinBytes: 0,
      startTimeoutMs: 20_000,
    });
    expect(await python.scanLines(file, stats, request(4))).toBeUndefined();
    expect(await python.scanLines(file, stats, request(4))).toBeUndefined();
    expect(runs).toBe(1);
  });

  test('a scan that starts late is not waited for, nor another started until it has started and ended', async () => {
    const file = await tree.write('late.txt', 'one\n');
    const stats = await localFileSystem.stat(file);
    const started: ExecProcess[] = [];
    // A Python that takes a second to start the first time, as one behind a wrapper waiting on a lock.
    const python = new HostPython({
      exec: (command, args) => {
        const wait = started.length === 0 ? 'sleep 1' : ':';
        started.push(fs.exec('sh', ['-c', `${wait}; exec "$0" "$@"`, command, ...args]));
        return started.at(-1)!;
      },
      program: 'python3',
      scanMinBytes: 0,
      startTimeoutMs: 200,
    });
    expect(await python.scanLines(file, stats, request(4))).toBeUndefined();
    expect(await python.scanLines(file, stats, request(4))).toBeUndefined();
    expect(started).toHaveLength(1);
    // Once it started, nobody wants its answer: it is killed (a scan this small may end first), and the next one runs.
    await started[0]!.exit;
    expect(await python.scanLines(file, stats, request(4))).toMatchObject({ totalLines: 1 });
    expect(started).toHaveLength(2);
  });
});

describe('ReadFile over SSH with the line index made on the host', () => {
  /** A log of lines of every length, some `\r\n`, a long one, and no break at the end. */
  function log(): string {
    const lines: string[] = [];
    for (let index = 1; index <= 120_000; index++) {
      const text = `${index} ${'x'.repeat(index % 97)}${index % 1000 === 0 ? 'y'.repeat(5000) : ''}`;
      lines.push(index % 7 === 0 ? `${text}\r\n` : `${text}\n`);
    }
    return `${lines.join('')}the end`;
  }

  test('answers byte for byte as on the local disk, reading only the pages over SFTP', async () => {
    const file = await tree.write('big.log', log());
    const size = (await nodeFs.stat(file)).size;
    const local = new ReadFile(createRuntime({ workDir: tree.workDir, approval: yoloApproval() }), {});
    const remote = new ReadFile(createRuntime({ workDir: fs.root, approval: yoloApproval(), fs }), {});
    const calls = [
      { path: 'big.log', line_offset: 100_000, n_lines: 200 },
      { path: 'big.log', line_offset: 1, n_lines: 50 },
      { path: 'big.log', line_offset: -30 },
      { path: 'big.log', line_offset: 200_000 },
      { path: 'big.log', line_offset: 54_321, n_lines: 10 },
    ];
    for (const call of calls) {
      requests.length = 0;
      const [expected, actual] = [await local.call(call), await remote.call(call)];
      expect(actual, JSON.stringify(call)).toEqual(expected);
      // A page, not the file: fewer reads than the whole file takes (OpenSSH reads 261,120 bytes at most a request).
      const reads = requests.filter((name) => name === 'read').length;
      expect(reads).toBeLessThan(Math.ceil(size / 261_120) / 1.5);
    }
  });

  test('without the host’s Python, counts the file over SFTP in bulk reads, with the answers of the local disk', async () => {
    // Over 4 MiB: core's own scan reads it in 4 MiB reads (each many SFTP requests) into its counter's memory.
    const file = await tree.write('big-sftp.log', log());
    expect((await nodeFs.stat(file)).size).toBeGreaterThan(4 << 20);
    const sftpRequests: string[] = [];
    const sftpOnly = await ssh.connect(tree.workDir, {
      python: null,
      onRequest: (name) => sftpRequests.push(name),
    });
    try {
      const local = new ReadFile(createRuntime({ workDir: tree.workDir, approval: yoloApproval() }), {});
      const remote = new ReadFile(
        createRuntime({ workDir: sftpOnly.root, approval: yoloApproval(), fs: sftpOnly }),
        {},
      );
      for (const call of [
        { path: 'big-sftp.log', line_offset: 100_000, n_lines: 200 },
        { path: 'big-sftp.log', line_offset: -30 },
        { path: 'big-sftp.log', line_offset: 54_321, n_lines: 10 },
      ]) {
        expect(await remote.call(call), JSON.stringify(call)).toEqual(await local.call(call));
      }
      // The first call read the whole file over SFTP (OpenSSH reads 261,120 bytes at most a request).
      const size = (await nodeFs.stat(file)).size;
      expect(sftpRequests.filter((name) => name === 'read').length).toBeGreaterThanOrEqual(size / 261_120);
    } finally {
      await sftpOnly.close();
    }
  });

  test('a file the host finds binary or not UTF-8 gets the answers it gets on the local disk', async () => {
    const text = 'line\n'.repeat(20_000);
    for (const [name, bytes] of [
      ['nul.txt', Buffer.concat([Buffer.from(text), Buffer.from([0]), Buffer.from('tail\n')])],
      ['latin.txt', Buffer.concat([Buffer.from(text), Buffer.from('caf\xe9\n', 'latin1')])],
    ] as const) {
      await tree.write(name, bytes);
      const local = new ReadFile(createRuntime({ workDir: tree.workDir, approval: yoloApproval() }), {});
      const remote = new ReadFile(createRuntime({ workDir: fs.root, approval: yoloApproval(), fs }), {});
      const call = { path: name, line_offset: 19_990 };
      expect(await remote.call(call), name).toEqual(await local.call(call));
    }
  });
});
