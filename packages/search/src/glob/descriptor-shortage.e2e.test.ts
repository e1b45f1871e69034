import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const CORE = fileURLToPath(new URL('../../../core/dist/index.js', import.meta.url));
const FOLDERS = 400;
/** Descriptors the process may hold: Node itself takes about twenty. */
const DESCRIPTOR_LIMIT = 64;

// A fresh process on the built packages, allowed few file descriptors (`ulimit -n`), runs eight Globs at once over
// folders that each hold an ignore file: walks compete for descriptors, as in a busy host. Each call's answer is
// printed.
const script = (root: string) => `
const { Glob } = await import(${JSON.stringify(BUILT)});
const { createRuntime, yoloApproval } = await import(${JSON.stringify(CORE)});
const glob = new Glob(createRuntime({ workDir: ${JSON.stringify(root)}, approval: yoloApproval() }));
const calls = [];
for (let round = 0; round < 4; round++) {
  calls.push(glob.call({ pattern: '**/secret.txt' }), glob.call({ pattern: '**/ok.txt' }));
}
const results = await Promise.all(calls);
process.stdout.write(JSON.stringify(results.map(({ isError, message }) => ({ isError, message }))));
`;

describe('Glob, short of file descriptors', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'kimi-glob-descriptors-'));
    for (let index = 0; index < FOLDERS; index++) {
      const folder = path.join(root, `d${index}`);
      await mkdir(folder);
      await writeFile(path.join(folder, '.gitignore'), 'secret.txt\n');
      await writeFile(path.join(folder, 'secret.txt'), '');
      await writeFile(path.join(folder, 'ok.txt'), '');
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('waits for descriptors instead of leaving folders out or their ignore rules unread', async () => {
    const { stdout } = await promisify(execFile)('sh', [
      '-c',
      `ulimit -n ${DESCRIPTOR_LIMIT} && exec "$0" --input-type=module -e "$1"`,
      process.execPath,
      script(root),
    ]);
    const hidden = {
      isError: false,
      message: `No matches found for pattern \`**/secret.txt\`. ${FOLDERS} more matches are hidden by ignore rules; set include_ignored to true to include them.`,
    };
    const found = { isError: false, message: `Found ${FOLDERS} matches for pattern \`**/ok.txt\`.` };
    expect(JSON.parse(stdout)).toEqual([hidden, found, hidden, found, hidden, found, hidden, found]);
  });
});
