import { readFile } from 'node:fs/promises';

/** A fenced `ts` block of a Markdown file. */
export interface TypeScriptBlock {
  /** The code, without its fences. */
  code: string;
  /** The line of the file the code starts on (1-based), to say which block failed. */
  line: number;
}

/** Every fenced `ts` block of a Markdown file, in order. */
export async function typeScriptBlocks(markdownFile: string): Promise<TypeScriptBlock[]> {
  const text = await readFile(markdownFile, 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => ({
    code: match[1] ?? '',
    line: text.slice(0, match.index).split('\n').length + 1,
  }));
}

/** The first fenced `ts` block of a Markdown file, without its fences: the Quick start of a README. */
export async function firstTypeScriptBlock(markdownFile: string): Promise<string> {
  const [first] = await typeScriptBlocks(markdownFile);
  if (!first) throw new Error(`${markdownFile} has no \`\`\`ts block`);
  return first.code;
}
