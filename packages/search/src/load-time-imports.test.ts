import { fileURLToPath } from 'node:url';
import { loadTimeImportOffenders } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';

const SOURCE_DIR = fileURLToPath(new URL('.', import.meta.url));

describe('what loading @kimi-tools/search loads', () => {
  it('zod as a namespace, which the build shakes, and nothing loaded on use', async () => {
    // The portable search (Grep without ripgrep) is imported by Grep on its first use only.
    const loadedOnUse = [
      'micromatch',
      '@vscode/ripgrep',
      './portable/portable-search.js',
      './portable/matcher-worker.js',
    ];
    const rules = { loadedOnUse, bundledAsNamespace: ['zod'] };
    expect(await loadTimeImportOffenders(SOURCE_DIR, rules)).toEqual([]);
  });
});
