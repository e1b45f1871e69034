import { expect } from 'vitest';
import { firstTypeScriptBlock, typeScriptBlocks } from './readme-snippet.js';
import { test } from './workspace-test.js';

test('gives the first ts block of a Markdown file without its fences', async ({ workspace }) => {
  const file = await workspace.write(
    'README.md',
    '# X\n\n```sh\nnpm i x\n```\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\n```ts\nconst c = 3;\n```\n',
  );
  expect(await firstTypeScriptBlock(file)).toBe('const a = 1;\nconst b = 2;\n');
});

test('refuses a file without a ts block', async ({ workspace }) => {
  const file = await workspace.write('README.md', '# X\n\n```sh\nnpm i x\n```\n');
  await expect(firstTypeScriptBlock(file)).rejects.toThrow(`${file} has no \`\`\`ts block`);
});

test('gives every ts block with the line its code starts on', async ({ workspace }) => {
  const file = await workspace.write(
    'README.md',
    '# X\n\n```ts\nconst a = 1;\n```\n\ntext\n\n```ts\nconst b = 2;\n```\n',
  );
  expect(await typeScriptBlocks(file)).toEqual([
    { code: 'const a = 1;\n', line: 4 },
    { code: 'const b = 2;\n', line: 10 },
  ]);
});
