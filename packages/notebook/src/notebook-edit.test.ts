import { execFileSync } from 'node:child_process';
import type { ToolRuntime } from '@kimi-tools/core';
import { pngBytes, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit, DEFAULT_MAX_BYTES } from './index.js';

/** The kit's test, with `tool`: a NotebookEdit on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new NotebookEdit(runtime));

describe('NotebookEdit: facts', () => {
  it('tells the kind, size, encoding, line endings and lines of a text file', async ({ workspace, tool }) => {
    await workspace.write('notes.txt', 'one\ntwo\nthree');
    const result = await tool.call({ path: 'notes.txt' });
    expect(result).toEqual({
      isError: false,
      output: 'kind: text\nsize: 13 bytes\nencoding: utf-8\nbom: no\nline endings: lf\nlines: 3',
      message: '`notes.txt`: text file, 13 bytes, 3 lines.',
      brief: '',
      display: [],
      extras: { kind: 'text', size: 13, encoding: 'utf-8', bom: false, lineEndings: 'lf', lines: 3 },
    });
  });

  it('reports a byte order mark and the most frequent line ending', async ({ workspace, tool }) => {
    await workspace.write('win.txt', Buffer.from('\uFEFFa\r\nb\r\nc\n', 'utf8'));
    const result = await tool.call({ path: 'win.txt' });
    expect(result.output).toBe(
      'kind: text\nsize: 11 bytes\nencoding: utf-8\nbom: yes\nline endings: crlf\nlines: 3',
    );
  });

  it('counts no line in an empty file', async ({ workspace, tool }) => {
    await workspace.write('empty.txt', '');
    const result = await tool.call({ path: 'empty.txt' });
    expect(result.message).toBe('`empty.txt`: text file, 0 bytes, 0 lines.');
  });

  it('gives the media type of an image and no text details', async ({ workspace, tool }) => {
    const png = pngBytes(2, 2);
    await workspace.write('pixel.png', png);
    const result = await tool.call({ path: 'pixel.png' });
    expect(result.output).toBe(`kind: image\nmedia type: image/png\nsize: ${png.length} bytes`);
    expect(result.extras).toEqual({ kind: 'image', size: png.length, mediaType: 'image/png' });
  });

  it('calls binary what has a NUL byte early, or does not decode as text', async ({ workspace, tool }) => {
    await workspace.write('early.bin', Buffer.from([0, 1, 2, 3]));
    expect((await tool.call({ path: 'early.bin' })).output).toBe('kind: binary\nsize: 4 bytes');
    // Past the first bytes a NUL is only found by decoding: the kind then changes from text to binary.
    await workspace.write('late.bin', Buffer.concat([Buffer.alloc(600, 'a'), Buffer.from([0])]));
    expect((await tool.call({ path: 'late.bin' })).output).toBe('kind: binary\nsize: 601 bytes');
    expect((await tool.call({ path: 'late.bin', text_details: false })).output).toBe(
      'kind: text\nsize: 601 bytes',
    );
  });

  it('records no read: the write tools still ask for one', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('a.txt', 'a\n');
    await tool.call({ path: 'a.txt' });
    expect(await runtime.fileState.check(file)).toBe('not-read');
  });
});

describe('NotebookEdit: the maxBytes option and text_details', () => {
  it('refuses the text details of a file over maxBytes, and gives its kind and size without them', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('big.txt', 'x'.repeat(20));
    const tool = new NotebookEdit(runtime, { maxBytes: 16 });
    const refused = await tool.call({ path: 'big.txt' });
    expect(refused.isError).toBe(true);
    expect(refused.message).toBe(
      '`big.txt` is 20 bytes; text details are given for files up to 16 bytes. ' +
        'Call NotebookEdit again with text_details set to false to get its kind and size.',
    );
    expect(refused.brief).toBe('Text too large');
    const basic = await tool.call({ path: 'big.txt', text_details: false });
    expect(basic.output).toBe('kind: text\nsize: 20 bytes');
    expect(basic.message).toBe('`big.txt`: text file, 20 bytes.');
  });

  it('says its limit in the description', ({ runtime }) => {
    expect(new NotebookEdit(runtime).description).toContain(`larger than ${DEFAULT_MAX_BYTES} bytes`);
    expect(new NotebookEdit(runtime, { maxBytes: 4096 }).description).toContain('larger than 4096 bytes');
  });

  it('refuses an invalid option when it is made', ({ runtime }) => {
    expect(() => new NotebookEdit(runtime, { maxBytes: 0 })).toThrow(
      'NotebookEdit: maxBytes must be a positive number, got 0.',
    );
  });
});

describe('NotebookEdit: arguments and schema', () => {
  it('sends the model a schema with a description on every field', ({ tool }) => {
    expect(tool.name).toBe('NotebookEdit');
    expect(tool.parameters).toEqual(PARAMETERS_SCHEMA);
  });

  it('answers bad arguments with the validation error', async ({ tool }) => {
    const missing = await tool.call({});
    expect(missing.message).toBe('Error validating JSON arguments: path: is required');
    expect(missing.brief).toBe('Invalid arguments');
    const wrongType = await tool.call({ path: 'a.txt', text_details: 'yes' });
    expect(wrongType.message).toBe(
      'Error validating JSON arguments: text_details: Invalid input: expected boolean, received string',
    );
  });
});

describe('NotebookEdit: paths', () => {
  it('says when a file does not exist, with similar names', async ({ workspace, tool }) => {
    await workspace.write('notes.txt', 'x');
    const result = await tool.call({ path: 'note.txt' });
    expect(result.message).toBe('`note.txt` does not exist. Did you mean: notes.txt?');
    expect(result.brief).toBe('File not found');
  });

  it('refuses a directory', async ({ workspace, tool }) => {
    await workspace.mkdir('src');
    const result = await tool.call({ path: 'src' });
    expect(result.message).toBe('`src` is not a file.');
    expect(result.brief).toBe('Invalid path');
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO without opening it',
    async ({ workspace, tool }) => {
      execFileSync('mkfifo', [workspace.at('pipe')]);
      const result = await tool.call({ path: 'pipe' });
      expect(result.message).toBe('`pipe` is not a file.');
    },
  );

  it('applies the path policy: empty, relative outside, denied', async ({ workspace, tool }) => {
    const empty = await tool.call({ path: '' });
    expect([empty.message, empty.brief]).toEqual(['File path cannot be empty.', 'Empty file path']);

    await workspace.write(workspace.outside('a.txt'), 'a\n');
    const relative = await tool.call({ path: '../outside/a.txt' });
    expect(relative.message).toBe(
      '`../outside/a.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
    );
    expect((await tool.call({ path: workspace.outside('a.txt') })).isError).toBe(false);

    const denying = new NotebookEdit(workspace.runtime({ deny: ['**/private/**'] }));
    await workspace.write('private/x.txt', 'x\n');
    const denied = await denying.call({ path: 'private/x.txt' });
    expect([denied.message, denied.brief]).toEqual([
      '`private/x.txt` is denied by the workspace policy.',
      'Access denied',
    ]);
  });

  it('turns an unexpected failure into the generic error', async ({ runtime }) => {
    const failing = { resolveFile: () => Promise.reject(new Error('disk on fire')) };
    const broken = { ...runtime, paths: failing } as unknown as ToolRuntime;
    const result = await new NotebookEdit(broken).call({ path: 'a.txt' });
    expect(result.message).toBe('Failed to read a.txt. Error: disk on fire');
    expect(result.brief).toBe('Failed to read file');
  });
});

/** The JSON Schema the model is sent: what docs/notebook-edit.md lists, field by field. */
const PARAMETERS_SCHEMA = {
  type: 'object',
  required: ['path'],
  properties: {
    path: {
      type: 'string',
      description:
        'The file to describe: absolute, or relative to the working directory. ' +
        'A file outside the working directory needs an absolute path.',
    },
    text_details: {
      type: 'boolean',
      default: true,
      description:
        'Whether to decode a text file to report its encoding, byte order mark, line endings and number of lines ' +
        '(default true). Set it to false to get only the kind and size of a large file.',
    },
  },
};
