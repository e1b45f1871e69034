import type { ToolRuntime } from '@kimi-tools/core';
import { expect } from 'vitest';
import { Glob } from '../glob/glob.js';
import type { Grep } from '../grep/grep.js';
import type { TreeSpec } from './backend-tree.js';

/**
 * A file of each kind of name docs/paths.md#how-paths-are-shown shows quoted (controls, separators, bidirectional
 * controls, a component starting with `"`, white space at an end), some of them holding what a glob reads as syntax,
 * and their plain neighbours a glob read as syntax would match instead. Each holds `zebra`.
 */
export const QUOTED_NAMES: TreeSpec = {
  files: Object.fromEntries(
    [
      'a\nb.txt',
      'ab.txt',
      'cr\r.txt',
      'esc\u001b[2K.txt',
      'bs\u0008 ff\u000c del\u007f.txt',
      'c1\u0085\u009b.txt',
      'sep\u2028\u2029.txt',
      'bidi\u202e\u2066.txt',
      '"draft".md',
      'dir/"quoted".md',
      'dir/we"ird.txt',
      ' lead.txt',
      'trail.txt ',
      'nbsp\u00a0',
      'tab-end\t',
      'd\tir/x.txt',
      '[id]\t.tsx',
      'i\t.tsx',
      '*star\n',
      '!bang\n',
      '#hash\n',
      '{a,b}\n',
      'a\n',
      '(p)|q?\n',
      'back\\slash\n',
      'backslash\n',
      '\\lead\n',
      ' ',
      'ideographic\u3000',
      'tab\\\t',
    ].map((name) => [name, 'zebra\n']),
  ),
};

/** Names that are not UTF-8 (docs/paths.md#names-that-are-not-utf-8), beside the real U+FFFD name they read as. */
export const BYTE_NAMES: TreeSpec = {
  files: {
    'inv\udcff.txt': 'zebra\n',
    'inv\udcfe.txt': 'zebra\n',
    'inv\ufffd.txt': 'zebra\n',
    'd\udc80/inner.txt': 'zebra\n',
  },
};

/**
 * Feeds every path Glob shows back in, as Glob's `pattern` and (for files, when `grep` is given) as Grep's `glob`, and
 * expects each to find that path and no other, shown the same way. Returns the paths checked.
 */
export async function expectShownPathsFoundAgain(runtime: ToolRuntime, grep?: Grep): Promise<string[]> {
  const glob = new Glob(runtime);
  const shown = String((await glob.call({ pattern: '**' })).output).split('\n');
  const files = new Set(String((await glob.call({ pattern: '**', include_dirs: false })).output).split('\n'));
  for (const path of shown) {
    const again = await glob.call({ pattern: path });
    expect(again.output, `Glob ${path}`).toBe(path);
    if (!grep || !files.has(path)) continue;
    const searched = await grep.call({ pattern: 'zebra', glob: path });
    expect(searched.output, `Grep ${path}`).toBe(path);
  }
  return shown;
}
