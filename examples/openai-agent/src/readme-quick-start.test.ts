import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { firstTypeScriptBlock } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';

it('type-checks the Quick start of the @kimi-tools/openai README, which it repeats verbatim', async () => {
  const checked = await readFile(new URL('./readme-quick-start.ts', import.meta.url), 'utf8');
  const readme = fileURLToPath(new URL('../../../packages/openai/README.md', import.meta.url));
  expect(checked.endsWith(`\n\n${await firstTypeScriptBlock(readme)}`)).toBe(true);
});
