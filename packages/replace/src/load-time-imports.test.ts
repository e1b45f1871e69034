import { fileURLToPath } from 'node:url';
import { loadTimeImportOffenders } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';

const SOURCE_DIR = fileURLToPath(new URL('.', import.meta.url));

describe('what loading @kimi-tools/replace loads', () => {
  it('zod as a namespace, which the build shakes, and nothing loaded on use', async () => {
    const rules = { loadedOnUse: [], bundledAsNamespace: ['zod'] };
    expect(await loadTimeImportOffenders(SOURCE_DIR, rules)).toEqual([]);
  });
});
