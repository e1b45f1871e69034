import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { fileNotFoundError, notAFileError, unsupportedEncodingError } from './file-errors.js';
import { localFileSystem } from '../fs/local-file-system.js';

describe('file errors', () => {
  it('says a file does not exist, suggesting similar names', async ({ workspace }) => {
    await workspace.write('config.json', '{}');
    expect(
      await fileNotFoundError(localFileSystem, 'confg.json', workspace.at('confg.json'), workspace.workDir),
    ).toMatchObject({
      isError: true,
      message: '`confg.json` does not exist. Did you mean: config.json?',
      brief: 'File not found',
    });
    expect(
      (await fileNotFoundError(localFileSystem, 'zzz.txt', workspace.at('zzz.txt'), workspace.workDir))
        .message,
    ).toBe('`zzz.txt` does not exist.');
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
