import { createTempWorkspace, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { fileNotFoundError, notAFileError, unsupportedEncodingError } from './file-errors.js';
import { localFileSystem } from '../fs/local-file-system.js';
import { readShownPath } from './normalize-input.js';

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

  // docs/paths.md#names-in-a-line: asked for `café.txt` written as one code point (NFC), the hint offered the NFD file
  // as `café.txt`, a name the model had just given: it could only give it again.
  it('spells out a name offered that reads as the one asked for, so the model sees what differs', async ({
    workspace,
  }) => {
    const nfd = 'cafe\u0301.txt';
    await workspace.write(nfd, 'x');
    const asked = 'caf\u00e9.txt';
    const { message } = await fileNotFoundError(
      localFileSystem,
      asked,
      workspace.at(asked),
      workspace.workDir,
    );
    expect(message).toBe('`caf\u00e9.txt` does not exist. Did you mean: "cafe\\u0301.txt"?');
    expect(readShownPath('"cafe\\u0301.txt"')).toBe(nfd);
  });

  // The same for a name that differs from the one asked for only by a character a reader cannot see or tell from
  // another: a zero-width space offered (`zw<U+200B>x.txt` for `zwx.txt`), a no-break space for a space, a soft hyphen,
  // a ligature; shown as they are, each read exactly as the name just refused.
  it.each([
    ['zwx.txt', 'zw\u200bx.txt', '"zw\\u200bx.txt"'],
    ['a b.txt', 'a\u00a0b.txt', '"a\\u00a0b.txt"'],
    ['word.txt', 'wo\u00adrd.txt', '"wo\\u00adrd.txt"'],
    ['file.txt', '\ufb01le.txt', '"\\ufb01le.txt"'],
  ])('spells out %j when the name offered reads the same: %j', async (asked, offered, spelled) => {
    const workspace = await createTempWorkspace();
    try {
      await workspace.write(offered, 'x');
      const { message } = await fileNotFoundError(
        workspace.fs,
        asked,
        workspace.at(asked),
        workspace.workDir,
      );
      expect(message).toBe(`\`${asked}\` does not exist. Did you mean: ${spelled}?`);
      expect(readShownPath(spelled)).toBe(offered);
    } finally {
      await workspace.cleanup();
    }
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
