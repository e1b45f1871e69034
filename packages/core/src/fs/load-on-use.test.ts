import { fileURLToPath } from 'node:url';
import { loadTimeImportOffenders } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import {
  chardet,
  iconvLite,
  ignore,
  jsdiff,
  nodeAsyncHooks,
  nodeBuffer,
  nodeCrypto,
  nodeModule,
  nodeOs,
  nodeTimers,
  nodeUrl,
  nodeUtil,
  picomatch,
  workerThreads,
} from './load-on-use.js';

const SOURCE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('dependencies loaded on use', () => {
  it('are imported at load time by no source file (types aside)', async () => {
    // zod: core reads tool schemas through their own methods and never loads zod itself, so the tree-shaken zod
    // a tool package bundles is the only one a process using a tool loads.
    // Node's modules a first call rarely needs: statically imported, their ES facades load more of Node (`node:fs`
    // its streams, `node:crypto` WebCrypto) at every start of a process (`pnpm bench coldStart`).
    const loadedOnUse = [
      'iconv-lite',
      'chardet',
      'diff',
      'picomatch',
      'ignore',
      'zod',
      'node:async_hooks',
      'node:buffer',
      'node:child_process',
      'node:crypto',
      'node:fs',
      'node:module',
      'node:os',
      'node:timers/promises',
      'node:url',
      'node:util',
      'node:worker_threads',
    ];
    expect(await loadTimeImportOffenders(SOURCE_DIR, { loadedOnUse })).toEqual([]);
  });

  it('work once loaded', () => {
    expect(iconvLite().decode(Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), 'gbk')).toBe('你好');
    expect(jsdiff().diffArrays(['a', 'b'], ['a', 'c']).length).toBe(3);
    expect(chardet().analyse(Buffer.from('plain ascii text')).length).toBeGreaterThan(0);
    expect(picomatch()('*.ts')('a.ts')).toBe(true);
    expect(ignore()().add('*.log').ignores('a.log')).toBe(true);
    expect(nodeCrypto().createHash('sha256').update('').digest('hex')).toMatch(/^e3b0c442/);
    expect(
      typeof nodeModule()
        .createRequire(import.meta.url)
        .resolve('diff'),
    ).toBe('string');
    expect(nodeOs().constants.errno.ENOENT).toBeGreaterThan(0);
    expect(typeof nodeTimers().setTimeout).toBe('function');
    expect(typeof new (nodeAsyncHooks().AsyncLocalStorage)().run).toBe('function');
    expect(nodeBuffer().isAscii(Buffer.from('plain'))).toBe(true);
    expect(nodeUrl().pathToFileURL('/a b').href).toBe('file:///a%20b');
    expect(nodeUtil().stripVTControlCharacters('\u001b[31mred\u001b[0m')).toBe('red');
    expect(typeof workerThreads().Worker).toBe('function');
  });
});
