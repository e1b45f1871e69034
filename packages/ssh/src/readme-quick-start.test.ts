import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { firstTypeScriptBlock } from '@kimi-tools/test-kit';
import { expect, test } from 'vitest';

test('readme-quick-start.ts repeats the Quick start of the README verbatim, so the type check covers it', async () => {
  const checked = await readFile(new URL('./readme-quick-start.ts', import.meta.url), 'utf8');
  const readme = fileURLToPath(new URL('../README.md', import.meta.url));
  expect(checked.endsWith(`\n\n${await firstTypeScriptBlock(readme)}`)).toBe(true);
});
