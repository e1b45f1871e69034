import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const CHECK = fileURLToPath(new URL('__fixtures__/check-loads.mts', import.meta.url));

// TypeScript's compiler costs about 0.9 s of CPU to load: a host that starts (the playground, an agent checking JSON)
// must not pay it before the first script is checked.
it('loads the TypeScript parser for the first script, not before', async () => {
  const { stdout, stderr } = await promisify(execFile)(
    TSX,
    [CHECK, 'json={"a": }', 'yaml=a: [1', 'typescript=let x = ;'],
    { env: { ...process.env, NODE_DEBUG: 'esm,module' }, maxBuffer: 64 * 1024 * 1024 },
  );
  expect(JSON.parse(stdout)).toEqual([1, 1, 1]);
  const events = stderr
    .split('\n')
    .map((line) => (/typescript[/\\]lib[/\\]typescript\.js/.test(line) ? 'typescript loaded' : line))
    .filter((line) => line === 'typescript loaded' || line.startsWith('checked '));
  expect([...new Set(events)]).toEqual([
    'checked json',
    'checked yaml',
    'typescript loaded',
    'checked typescript',
  ]);
});
