import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chardet, iconvLite, jsdiff } from './load-on-use.js';

const SOURCE_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const LOADED_ON_USE = ['iconv-lite', 'chardet', 'diff'];

describe('dependencies loaded on use', () => {
  it('are imported at load time by no source file (types aside)', async () => {
    const entries = await readdir(SOURCE_DIR, { recursive: true, withFileTypes: true });
    const offenders: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      for (const match of text.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)) {
        if (LOADED_ON_USE.includes(match[1] as string)) offenders.push(`${entry.name}: ${match[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('work once loaded', () => {
    expect(iconvLite().decode(Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), 'gbk')).toBe('你好');
    expect(jsdiff().diffArrays(['a', 'b'], ['a', 'c']).length).toBe(3);
    expect(chardet().analyse(Buffer.from('plain ascii text')).length).toBeGreaterThan(0);
  });
});
