import { fileURLToPath } from 'node:url';
import { loadTimeImportOffenders } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import { chardet, iconvLite, jsdiff } from './load-on-use.js';

const SOURCE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('dependencies loaded on use', () => {
  it('are imported at load time by no source file (types aside)', async () => {
    // zod: core reads tool schemas through their own methods and never loads zod itself, so the tree-shaken zod
    // a tool package bundles is the only one a process using a tool loads.
    const loadedOnUse = ['iconv-lite', 'chardet', 'diff', 'zod'];
    expect(await loadTimeImportOffenders(SOURCE_DIR, { loadedOnUse })).toEqual([]);
  });

  it('work once loaded', () => {
    expect(iconvLite().decode(Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), 'gbk')).toBe('你好');
    expect(jsdiff().diffArrays(['a', 'b'], ['a', 'c']).length).toBe(3);
    expect(chardet().analyse(Buffer.from('plain ascii text')).length).toBeGreaterThan(0);
  });
});
