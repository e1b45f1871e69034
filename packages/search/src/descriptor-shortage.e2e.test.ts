import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const CORE = fileURLToPath(new URL('../../core/dist/index.js', import.meta.url));
const FOLDERS = 400;
/** Descriptors the process may hold: Node itself takes about twenty. */
const DESCRIPTOR_LIMIT = 64;
const ROUNDS = 12;

/** Runs `body` in a fresh process on the built packages, allowed {@link DESCRIPTOR_LIMIT} descriptors; its stdout. */
async function runShortOfDescriptors(root: string, body: string) {
  const script = `
const { Glob, Grep } = await import(${JSON.stringify(BUILT)});
const { createRuntime, yoloApproval } = await import(${JSON.stringify(CORE)});
const runtime = createRuntime({ workDir: ${JSON.stringify(root)}, approval: yoloApproval() });
const answer = ({ isError, message }) => ({ isError, message });
${body}`;
  // No `PATH`: a Grep must find the ripgrep of its own install, not a system `rg` (both programs are absolute paths).
  const { stdout } = await promisify(execFile)(
    '/bin/sh',
    [
      '-c',
      `ulimit -n ${DESCRIPTOR_LIMIT} && exec "$0" --input-type=module -e "$1"`,
      process.execPath,
      script,
    ],
    { env: { ...process.env, PATH: '' } },
  );
  return JSON.parse(stdout) as unknown;
}

/** Holds every descriptor the process has left (on /dev/null) until `release()`. */
const EXHAUST = `
const { openSync, closeSync } = await import('node:fs');
const held = [];
try { for (;;) held.push(openSync('/dev/null', 'r')); } catch {}
const release = () => held.splice(0).forEach((fd) => closeSync(fd));
`;

describe('Glob and Grep, short of file descriptors', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'kimi-search-descriptors-'));
    for (let index = 0; index < FOLDERS; index++) {
      const folder = path.join(root, `d${index}`);
      await mkdir(folder);
      await writeFile(path.join(folder, '.gitignore'), 'secret.txt\n');
      await writeFile(path.join(folder, 'secret.txt'), '');
      await writeFile(path.join(folder, 'ok.txt'), 'needle\n');
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('many walks at once wait for descriptors, never leaving folders out or their ignore rules unread', async () => {
    // Walks compete for descriptors, as in a busy host: the process reads only a few ignore files at once.
    const answers = await runShortOfDescriptors(
      root,
      `const calls = [];
for (let round = 0; round < ${ROUNDS}; round++) {
  calls.push(new Glob(runtime).call({ pattern: '**/secret.txt' }), new Glob(runtime).call({ pattern: '**/ok.txt' }));
}
process.stdout.write(JSON.stringify((await Promise.all(calls)).map(answer)));`,
    );
    const hidden = {
      isError: false,
      message: `No matches found for pattern \`**/secret.txt\`. ${FOLDERS} more matches are hidden by ignore rules; set include_ignored to true to include them.`,
    };
    const found = { isError: false, message: `Found ${FOLDERS} matches for pattern \`**/ok.txt\`.` };
    expect(answers).toEqual(Array.from({ length: ROUNDS }, () => [hidden, found]).flat());
  });

  it('micromatch, failed to load for want of a descriptor, loads on the next call', async () => {
    // micromatch loads on the first pattern that needs it (braces here); Node keeps a failed import failed.
    const answers = await runShortOfDescriptors(
      root,
      `${EXHAUST}
const glob = new Glob(runtime);
const starved = await glob.call({ pattern: 'd1/{ok,secret}.txt' });
release();
const fed = await glob.call({ pattern: 'd1/{ok,secret}.txt' });
process.stdout.write(JSON.stringify({ starved: starved.isError, fed: answer(fed) }));`,
    );
    expect(answers).toEqual({
      starved: true,
      fed: {
        isError: false,
        message:
          'Found 1 matches for pattern `d1/{ok,secret}.txt`. 1 more matches are hidden by ignore rules; set include_ignored to true to include them.',
      },
    });
  });

  it('Grep, looking for ripgrep while short of descriptors, finds it once they are back', async () => {
    // Node's resolver keeps a package.json it could not open as missing: without a lookup of its own, every later
    // Grep of the process said "ripgrep is not available".
    const answers = await runShortOfDescriptors(
      root,
      `${EXHAUST}
const grep = new Grep(runtime);
const starved = await grep.call({ pattern: 'needle', path: 'd1' });
release();
const later = await grep.call({ pattern: 'needle', path: 'd1' });
const fresh = await new Grep(runtime).call({ pattern: 'needle', path: 'd1' });
const found = ({ isError, output }) => ({ isError, output });
process.stdout.write(JSON.stringify({ starved: answer(starved), later: found(later), fresh: found(fresh) }));`,
    );
    expect(answers).toMatchObject({
      starved: { isError: true, message: expect.stringMatching(/^Failed to grep\. Error: .*EMFILE$/) },
      later: { isError: false, output: 'ok.txt' },
      fresh: { isError: false, output: 'ok.txt' },
    });
  });

  it('a walk waiting for descriptors stops when its call is cancelled', async () => {
    const answers = await runShortOfDescriptors(
      root,
      `${EXHAUST}
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('stopped by the host')), 20);
const result = await new Glob(runtime).call({ pattern: '**/ok.txt' }, { signal: controller.signal });
release();
process.stdout.write(JSON.stringify(answer(result)));`,
    );
    expect(answers).toEqual({
      isError: true,
      message: 'Failed to search for pattern **/ok.txt. Error: stopped by the host',
    });
  });
});
