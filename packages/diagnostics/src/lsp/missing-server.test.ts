import os from 'node:os';
import { localFileSystem } from '@kimi-tools/core/fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerPool } from './server-pool.js';

describe('a language server whose command does not exist', () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeEach(() => {
    rejections.length = 0;
    process.on('unhandledRejection', onRejection);
  });
  afterEach(() => {
    process.off('unhandledRejection', onRejection);
  });

  it('is reported as stopped, and the host process lives on', async () => {
    const config = { name: 'ghost', command: '/nonexistent/ghost-server', languages: { '.x': 'x' } };
    const pool = new ServerPool([config], localFileSystem, os.tmpdir());
    const deadline = performance.now() + 5_000;
    const check = await pool.check(config, 'x', `${os.tmpdir()}/a.x`, 'text', deadline);
    // A write to the failed process's pipe rejected where no one caught it, which ends a host by default.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    expect(check).toEqual({
      kind: 'crashed',
      message: 'language server ghost stopped and was restarted once',
    });
    expect(rejections).toEqual([]);
  });
});
