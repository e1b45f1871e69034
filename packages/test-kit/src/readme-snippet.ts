import { readFile } from 'node:fs/promises';

/** The first fenced `ts` block of a Markdown file, without its fences: the Quick start of a README. */
export async function firstTypeScriptBlock(markdownFile: string): Promise<string> {
  const text = await readFile(markdownFile, 'utf8');
  const match = /```ts\n([\s\S]*?)```/.exec(text);
  if (!match) throw new Error(`${markdownFile} has no \`\`\`ts block`);
  return match[1] ?? '';
}
