import { promises as fs } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { importRetrying } from './import-retrying.js';

describe('importRetrying', () => {
  test('a module whose dependency was missing loads once the dependency is there', async ({ workspace }) => {
    // A package `a` that imports a package `b` not installed yet: Node keeps the failed `a` for good.
    await workspace.writeAll({
      'node_modules/a/package.json': '{"name":"a","type":"module","main":"index.js"}',
      'node_modules/a/index.js': 'import b from "b"; export default b + 1;\n',
    });
    const url = pathToFileURL(workspace.at('node_modules/a/index.js')).href;
    await expect(import(url)).rejects.toThrow(/b/);
    await expect(importRetrying(() => import(url), url)).rejects.toThrow(/b/);
    await workspace.writeAll({
      'node_modules/b/package.json': '{"name":"b","type":"module","main":"index.js"}',
      'node_modules/b/index.js': 'export default 41;\n',
    });
    expect((await importRetrying(() => import(url) as Promise<{ default: number }>, url)).default).toBe(42);
    // Later calls reuse the copy that loaded.
    expect((await importRetrying(() => import(url) as Promise<{ default: number }>, url)).default).toBe(42);
    await fs.rm(workspace.at('node_modules/b'), { recursive: true });
    expect((await importRetrying(() => import(url) as Promise<{ default: number }>, url)).default).toBe(42);
  });
});
