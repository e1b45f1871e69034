// A plain Node script, one agent in its own process with its own runtime, on the built tools: after `ready`, waits
// for a line on stdin, then runs `rounds` read-modify-write rounds on one counter file (ReadFile, then WriteFile of
// the value + 1, always the same size), and prints one JSON line: the writes reported successful and the briefs of
// the refused ones. After each of its writes it sets the file's modification time back to one fixed second, as a
// file system whose clock did not tick between the writes would have left it: the hardest case for a read state
// that trusts times.
//
// argv[2] is a JSON object: { workDir, file, rounds, ssh? } (with `ssh`, each agent is a client of the run's SSH
// server: its writes, locks and times all go over its own connection).
import { once } from 'node:events';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { WriteFile } from '@kimi-tools/write';
import { childFileSystem } from '../support/child-file-system.mjs';

const { workDir, file, rounds, ssh } = JSON.parse(process.argv[2]);
const runtime = createRuntime({ workDir, approval: yoloApproval(), fs: await childFileSystem(ssh, workDir) });
const readFile = new ReadFile(runtime);
const writeFile = new WriteFile(runtime);
// A whole second is exact in the seconds `utimes` takes.
const FIXED_TIME = 1_700_000_000;

process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.destroy();

let written = 0;
const refused = {};
const count = (brief) => (refused[brief] = (refused[brief] ?? 0) + 1);
for (let round = 0; round < rounds; round++) {
  const read = await readFile.call({ path: file });
  const value = /counter=(\d+)/.exec(read.output);
  if (read.isError || !value) {
    count(`read: ${read.brief}`);
    continue;
  }
  const next = `counter=${String(Number(value[1]) + 1).padStart(8, '0')}\n`;
  const write = await writeFile.call({ path: file, content: next });
  if (write.isError) {
    count(write.brief);
    continue;
  }
  written++;
  await runtime.fs.utimes(path.join(workDir, file), FIXED_TIME, FIXED_TIME);
}
process.stdout.write(`${JSON.stringify({ written, refused })}\n`);
await runtime.fs.close?.();
