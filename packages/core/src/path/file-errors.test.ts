import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileNotFoundError, notAFileError, unsupportedEncodingError } from './file-errors.js';

let workDir: string;
beforeEach(async () => {
  workDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-file-errors-')));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

describe('file errors', () => {
  it('says a file does not exist, suggesting similar names', async () => {
    await fs.writeFile(path.join(workDir, 'config.json'), '{}');
    expect(await fileNotFoundError('confg.json', path.join(workDir, 'confg.json'), workDir)).toMatchObject({
      isError: true,
      message: '`confg.json` does not exist. Did you mean: config.json?',
      brief: 'File not found',
    });
    expect((await fileNotFoundError('zzz.txt', path.join(workDir, 'zzz.txt'), workDir)).message).toBe(
      '`zzz.txt` does not exist.',
    );
  });

  it('says a path is not a file', () => {
    expect(notAFileError('src')).toMatchObject({ message: '`src` is not a file.', brief: 'Invalid path' });
  });

  it('says a file is in no supported encoding and was not changed', () => {
    expect(unsupportedEncodingError('blob.bin')).toMatchObject({
      message: '`blob.bin` is not a valid text file in a supported encoding; it was not changed.',
      brief: 'Unsupported encoding',
    });
  });
});
