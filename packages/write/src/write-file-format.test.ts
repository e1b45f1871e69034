import { encodeText } from '@kimi-tools/core/toolkit';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

/**
 * The kit's test, with `tool` (a WriteFile on the workspace's runtime) and `rewrite`: writes `bytes` as `name`, marks
 * it read, overwrites or appends `content` through the tool, and returns the bytes.
 */
const it = test
  .extend('tool', ({ runtime }) => new WriteFile(runtime))
  .extend(
    'rewrite',
    ({ workspace, runtime, tool }) =>
      async (
        name: string,
        bytes: Uint8Array,
        content: string,
        mode: 'overwrite' | 'append' = 'overwrite',
      ) => {
        const file = await workspace.write(name, bytes, { readBy: runtime });
        const result = await tool.call({ path: name, content, mode });
        expect(result.isError, result.message).toBe(false);
        return workspace.bytes(file);
      },
  );

describe('WriteFile keeps the format of an existing file', () => {
  it('CRLF: an overwrite with LF content is written with CRLF', async ({ rewrite }) => {
    const written = await rewrite('crlf.txt', Buffer.from('one\r\ntwo\r\n'), 'one\nTWO\nthree\n');
    expect(written).toEqual([...Buffer.from('one\r\nTWO\r\nthree\r\n')]);
  });

  it('CRLF: an append is written with CRLF', async ({ rewrite }) => {
    const written = await rewrite('crlf.txt', Buffer.from('one\r\n'), 'two\nthree\n', 'append');
    expect(written).toEqual([...Buffer.from('one\r\ntwo\r\nthree\r\n')]);
  });

  it('mixed endings: untouched lines keep theirs, new lines get the dominant one', async ({ rewrite }) => {
    const written = await rewrite('mixed.txt', Buffer.from('a\r\nb\nc\r\nd\r\n'), 'a\nb\nc\nd\ne\n');
    expect(written).toEqual([...Buffer.from('a\r\nb\nc\r\nd\r\ne\r\n')]);
  });

  it('a kept LF stays LF after a rewritten line that takes a lone CR: that break becomes CRLF', async ({
    rewrite,
  }) => {
    // Found by core's line-ending property once the new text may end with a line break: "line 0 " became "NEW\n"
    // before the kept "\nline 1 \r" ("line 2 \r" became "NEW"). NEW's break took the dominant CR and the kept LF
    // after it was written as CR ("NEW\r\rline 1 \rNEW"); the LF now keeps its byte and the written CR gives way.
    const written = await rewrite(
      'lone-cr.txt',
      Buffer.from('line 0 \nline 1 \rline 2 \r'),
      'NEW\n\nline 1 \nNEW',
    );
    expect(written).toEqual([...Buffer.from('NEW\r\n\nline 1 \rNEW')]);
  });

  it('a UTF-8 BOM is kept', async ({ rewrite }) => {
    const bom = [0xef, 0xbb, 0xbf];
    const written = await rewrite('bom.txt', Buffer.from([...bom, ...Buffer.from('old\n')]), 'new ü\n');
    expect(written).toEqual([...bom, ...Buffer.from('new ü\n')]);
  });

  it('UTF-16 LE and BE with BOM are kept', async ({ rewrite }) => {
    expect(await rewrite('le.txt', utf16le('old\r\n'), 'néw\n')).toEqual([...utf16le('néw\r\n')]);
    expect(await rewrite('be.txt', utf16be('old\n'), 'néw 🌍\n')).toEqual([...utf16be('néw 🌍\n')]);
  });

  it('GBK stays GBK', async ({ rewrite }) => {
    const original = encodeText('第一行：你好，世界。\r\n第二行：中文文本。\r\n', {
      encoding: 'gb18030',
      bom: false,
    });
    const written = await rewrite('gbk.txt', original, '第一行：你好，世界。\n第二行：已修改。\n');
    const expected = encodeText('第一行：你好，世界。\r\n第二行：已修改。\r\n', {
      encoding: 'gb18030',
      bom: false,
    });
    expect(written).toEqual([...expected]);
    expect(new TextDecoder('gbk').decode(Uint8Array.from(written))).toBe(
      '第一行：你好，世界。\r\n第二行：已修改。\r\n',
    );
  });

  it('a file without line breaks takes the content as given', async ({ rewrite }) => {
    expect(await rewrite('one-line.txt', Buffer.from('single'), 'a\r\nb\r\n')).toEqual([
      ...Buffer.from('a\r\nb\r\n'),
    ]);
  });

  it('a CRLF file stays untouched byte for byte when only its endings would differ', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('crlf.txt', 'x\r\ny\r\n', { readBy: runtime });
    const result = await tool.call({ path: 'crlf.txt', content: 'x\r\ny\r\n' });
    expect(result.message).toBe(
      'File unchanged: the content is identical to the current file. Current size: 6 bytes.',
    );
  });

  it('a new file is UTF-8 without BOM, with the line endings given', async ({ workspace, tool }) => {
    await tool.call({ path: 'new.txt', content: 'a\r\nb\nc\r' });
    expect(await workspace.bytes(workspace.at('new.txt'))).toEqual([...Buffer.from('a\r\nb\nc\r')]);
  });

  // A lone surrogate (possible in a JSON string, never in UTF-8) was written as U+FFFD into a new file, where an
  // existing one refused it (docs/encodings.md: never written with a replacement character).
  it('a new file refuses a lone surrogate, as an existing one does, and nothing is created', async ({
    workspace,
    tool,
  }) => {
    expect(await tool.call({ path: 'new.txt', content: 'a\udcffb\n' })).toMatchObject({
      isError: true,
      // The error text holds the lone surrogate, so the message shows it quoted, escaped as every unsafe text is.
      message:
        'Failed to write to new.txt. Error: "The character \\"\\udcff\\" (U+DCFF) cannot be encoded in utf-8."',
      brief: 'Failed to write file',
    });
    expect(await workspace.exists(workspace.at('new.txt'))).toBe(false);
  });
});

describe('WriteFile never rewrites what it cannot decode', () => {
  it('refuses a binary file', async ({ workspace, runtime, tool }) => {
    const file = workspace.at('data.bin');
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]);
    await workspace.write(file, binary, { readBy: runtime });
    for (const mode of ['overwrite', 'append'] as const) {
      expect(await tool.call({ path: 'data.bin', content: 'text', mode })).toMatchObject({
        isError: true,
        message: '`data.bin` is not a valid text file in a supported encoding; it was not changed.',
        brief: 'Unsupported encoding',
      });
    }
    expect(await workspace.bytes(file)).toEqual([...binary]);
  });

  it('fails without writing when the content cannot be stored in the file encoding', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const original = encodeText('Première ligne, café crème.\nDeuxième ligne, déjà vu.\n', {
      encoding: 'windows-1252',
      bom: false,
    });
    const file = await workspace.write('latin.txt', original, { readBy: runtime });
    const result = await tool.call({ path: 'latin.txt', content: 'Première ligne, 你好.\n' });
    expect(result).toMatchObject({
      isError: true,
      message:
        'Failed to write to latin.txt. Error: The character "你" (U+4F60) cannot be encoded in windows-1252.',
      brief: 'Failed to write file',
    });
    expect(await workspace.bytes(file)).toEqual([...original]);
  });
});
