import { FileActions } from '@kimi-tools/core';
import { forwardingFileSystem, test } from '@kimi-tools/test-kit';
import type { BinaryLike } from 'node:crypto';
import { lastSeenText } from '@kimi-tools/core/toolkit';
import { describe, expect, vi } from 'vitest';
import { WriteFile } from './write-file.js';

/** The kit's test, with `tool`: a WriteFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

describe('WriteFile basics', () => {
  it('creates a new file, shows it as one diff block and asks EDIT', async ({
    workspace,
    tool,
    approval,
  }) => {
    const result = await tool.call({ path: 'hello.txt', content: 'Hello\nworld\n' });
    const file = workspace.at('hello.txt');
    const display = [
      {
        type: 'diff',
        path: file,
        oldText: '',
        newText: 'Hello\nworld',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ];
    expect(result).toEqual({
      isError: false,
      output: '',
      message: 'File successfully overwritten. Current size: 12 bytes.',
      brief: '',
      display,
      extras: { created: true, bytes: 12 },
    });
    expect(await workspace.read(file)).toBe('Hello\nworld\n');
    expect(approval.requests).toEqual([
      {
        sender: 'WriteFile',
        action: FileActions.EDIT,
        description: `Write file \`${file}\``,
        display,
        path: file,
        hunks: [
          {
            id: 'h1',
            path: file,
            oldStart: 1,
            oldLines: 0,
            newStart: 1,
            newLines: 2,
            lines: ['+Hello', '+world'],
          },
        ],
        editable: [expect.objectContaining({ path: file })],
      },
    ]);
  });

  it('overwrites a file it has read, and the next overwrite needs no re-read', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('a.txt', 'one\ntwo\nthree\n', { readBy: runtime });
    const first = await tool.call({ path: file, content: 'one\n2\nthree\n' });
    expect(first.message).toBe('File successfully overwritten. Current size: 12 bytes.');
    expect(first.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: 'one\ntwo\nthree',
        newText: 'one\n2\nthree',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ]);
    expect(first.extras).toEqual({ created: false, bytes: 12 });
    const second = await tool.call({ path: 'a.txt', content: 'done\n', mode: 'overwrite' });
    expect(second.isError).toBe(false);
    expect(await workspace.read(file)).toBe('done\n');
  });

  it('hashes the bytes it wrote once, for the read state and the text it keeps of them', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('a.txt', 'one\ntwo\n', { readBy: runtime });
    const content = 'one\n2\nthree\n';
    // Every hash core makes, through Node's own hasher, with what it was fed.
    const crypto = process.getBuiltinModule('node:crypto');
    const createHash = crypto.createHash.bind(crypto);
    const fed: string[] = [];
    const spy = vi.spyOn(crypto, 'createHash').mockImplementation((algorithm, options) => {
      const hash = createHash(algorithm, options);
      const update = hash.update.bind(hash);
      hash.update = (data: BinaryLike) => {
        fed.push(Buffer.from(data as Uint8Array).toString('utf8'));
        return update(data);
      };
      return hash;
    });
    try {
      expect((await tool.call({ path: file, content })).isError).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(fed.filter((data) => data === content)).toHaveLength(1);
    expect(lastSeenText(runtime, await runtime.fs.realpath(file))).toBe(content);
  });

  it('appends without a prior read, and appending to a missing file creates it', async ({
    workspace,
    tool,
  }) => {
    const file = await workspace.write('log.txt', 'first\n');
    const appended = await tool.call({ path: 'log.txt', content: 'second\n', mode: 'append' });
    expect(appended.message).toBe('File successfully appended to. Current size: 13 bytes.');
    expect(appended.extras).toEqual({ created: false, bytes: 13 });
    expect(appended.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: 'first',
        newText: 'first\nsecond',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ]);
    expect(await workspace.read(file)).toBe('first\nsecond\n');

    const created = await tool.call({ path: 'new.log', content: 'start', mode: 'append' });
    expect(created.message).toBe('File successfully appended to. Current size: 5 bytes.');
    expect(created.extras).toEqual({ created: true, bytes: 5 });
    expect(await workspace.read(workspace.at('new.log'))).toBe('start');
  });

  it('writes Unicode as UTF-8 and reports the size in bytes', async ({ workspace, tool }) => {
    const content = 'héllo wörld — 你好 🌍\n';
    const result = await tool.call({ path: 'unicode.txt', content });
    const size = Buffer.byteLength(content);
    expect(result.message).toBe(`File successfully overwritten. Current size: ${size} bytes.`);
    expect(await workspace.read(workspace.at('unicode.txt'))).toBe(content);
    expect([...Buffer.from(await workspace.bytes(workspace.at('unicode.txt'))).subarray(0, 3)]).toEqual([
      0x68, 0xc3, 0xa9,
    ]);
  });

  it('creates an empty file from empty content', async ({ workspace, tool }) => {
    const result = await tool.call({ path: 'empty.txt', content: '' });
    expect(result.message).toBe('File successfully overwritten. Current size: 0 bytes.');
    expect(result.extras).toEqual({ created: true, bytes: 0 });
    expect((await workspace.fs.stat(workspace.at('empty.txt'))).size).toBe(0);
  });

  it('writes large content and shows a summary instead of a huge diff', async ({ workspace, tool }) => {
    const content = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const result = await tool.call({ path: 'big.txt', content });
    expect(result.message).toBe(`File successfully overwritten. Current size: ${content.length} bytes.`);
    expect(result.display).toEqual([
      {
        type: 'diff',
        path: workspace.at('big.txt'),
        oldText: '(0 lines)',
        newText: '(20000 lines)',
        oldStart: 1,
        newStart: 1,
        isSummary: true,
      },
    ]);
    expect(await workspace.read(workspace.at('big.txt'))).toBe(content);
  });

  it('creates nested missing parents and lists them shallowest first', async ({ workspace, tool }) => {
    const result = await tool.call({ path: 'a/b/c/file.txt', content: 'deep' });
    expect(result.message).toBe(
      'File successfully overwritten. Current size: 4 bytes. Created directories: a, a/b, a/b/c.',
    );
    expect(await workspace.read(workspace.at('a/b/c/file.txt'))).toBe('deep');
    await workspace.mkdir('x');
    const partly = await tool.call({ path: 'x/y/file.txt', content: 'z' });
    expect(partly.message).toBe(
      'File successfully overwritten. Current size: 1 bytes. Created directories: x/y.',
    );
  });

  // docs/paths.md#names-in-a-line: `Created directories: a, b/c.` listed two directories, `a` and `b/c`.
  it('quotes a created directory holding `, `, the separator of the list', async ({ tool }) => {
    const result = await tool.call({ path: 'a, b/c/file.txt', content: 'z' });
    expect(result.message).toBe(
      'File successfully overwritten. Current size: 1 bytes. Created directories: "a, b", "a, b/c".',
    );
  });

  it('does nothing and asks nothing when the content is identical', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('same.txt', 'same\r\ncontent\r\n', { readBy: runtime });
    const before = await workspace.fs.stat(file);
    const result = await tool.call({ path: 'same.txt', content: 'same\ncontent\n' });
    expect(result).toEqual({
      isError: false,
      output: '',
      message: 'File unchanged: the content is identical to the current file. Current size: 15 bytes.',
      brief: '',
      display: [],
      extras: { created: false, bytes: 15 },
    });
    const appendNothing = await tool.call({ path: 'same.txt', content: '', mode: 'append' });
    expect(appendNothing.message).toBe(
      'File unchanged: the content is identical to the current file. Current size: 15 bytes.',
    );
    expect(approval.requests).toEqual([]);
    expect((await workspace.fs.stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses a directory as target', async ({ workspace, tool }) => {
    await workspace.mkdir('folder');
    const result = await tool.call({ path: 'folder', content: 'x' });
    expect(result).toMatchObject({
      isError: true,
      message: '`folder` is not a file.',
      brief: 'Invalid path',
    });
    expect((await workspace.fs.stat(workspace.at('folder'))).isDirectory()).toBe(true);
  });

  it('refuses a path running through a file, naming the part that is no directory, and writes nothing', async ({
    workspace,
    tool,
    approval,
  }) => {
    await workspace.write('a.txt', 'a\n');
    for (const [input, part] of [
      ['a.txt/x.txt', 'a.txt'],
      ['a.txt/deeper/x.txt', 'a.txt'],
    ]) {
      expect(await tool.call({ path: input!, content: 'x' })).toMatchObject({
        isError: true,
        message: `\`${input}\` cannot be created: \`${part}\` is not a directory.`,
        brief: 'Invalid path',
      });
    }
    expect(approval.requests).toEqual([]);
    expect(await workspace.list()).toEqual(['a.txt']);
  });

  it('refuses a path ending in a separator: it names a directory, and nothing is created', async ({
    workspace,
    tool,
    approval,
  }) => {
    for (const input of ['newdir/', 'new/dir/']) {
      const result = await tool.call({ path: input, content: 'x' });
      expect(result).toMatchObject({
        isError: true,
        message: `\`${input}\` ends with a path separator, so it names a directory, not a file.`,
        brief: 'Invalid path',
      });
    }
    // An existing directory is answered as without the separator.
    expect(await tool.call({ path: `${workspace.workDir}/`, content: 'x' })).toMatchObject({
      isError: true,
      message: `\`${workspace.workDir}/\` is not a file.`,
      brief: 'Invalid path',
    });
    expect(approval.requests).toEqual([]);
    expect(await workspace.list()).toEqual([]);
  });

  it('refuses to change an existing sensitive file, before reading it, and may create a new one', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const secret = 'API_KEY=sk-live-0123456789abcdef\n';
    const env = await workspace.write('.env', secret, { readBy: runtime });
    const message =
      '`.env` appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect credentials.';
    for (const mode of ['overwrite', 'append'] as const) {
      for (const content of [secret, 'other\n']) {
        expect(await tool.call({ path: '.env', content, mode })).toMatchObject({
          isError: true,
          message,
          brief: 'Sensitive file',
        });
      }
    }
    expect(await workspace.read(env)).toBe(secret);
    // A new file holds nothing yet, so nothing can leak: creating one is allowed.
    const created = await tool.call({ path: '.env.local', content: 'A=1\n' });
    expect(created).toMatchObject({ isError: false });
    expect(await workspace.read(workspace.at('.env.local'))).toBe('A=1\n');
  });

  it('shows a hostile file name escaped, to the user and to the model', async ({
    workspace,
    tool,
    approval,
  }) => {
    const name = 'a\u001b[2K\rWrite file harmless.txt';
    const shown = 'a\\u001b[2K\\rWrite file harmless.txt';
    const result = await tool.call({ path: `${name}.d/${name}`, content: 'x' });
    expect(approval.requests[0]?.description).toBe(
      `Write file \`"${workspace.workDir}/${shown}.d/${shown}"\``,
    );
    expect(result.message).toBe(
      `File successfully overwritten. Current size: 1 bytes. Created directories: "${shown}.d".`,
    );
    const missing = await tool.call({ path: `${name}\0`, content: 'x' });
    expect(missing.message).toBe(`\`"${shown}\\u0000"\` is not a valid path.`);
  });

  it('keeps every message bounded, however long the path', async ({ tool }) => {
    const long = 'a'.repeat(1_000_000);
    for (const path of [`${long}\0`, long, `d/${long}`, `/${long}`]) {
      const result = await tool.call({ path, content: 'x' });
      expect(result.isError).toBe(true);
      // A refused path longer than any system takes is shown as its two ends: 2 × 16,383 characters and the mark.
      expect(result.message.length).toBeLessThan(33_000);
      expect(result.message).toMatch(/\[\.\.\.\d+ characters cut\.\.\.\]/);
    }
  });

  it('reports other failures generically and leaves no file behind', async ({ workspace, tool }) => {
    const name = `${'x'.repeat(256)}.txt`;
    const result = await tool.call({ path: name, content: 'x' });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('Failed to write file');
    expect(result.message.startsWith(`Failed to write to ${name}. Error: ENAMETOOLONG`)).toBe(true);
    expect(await workspace.list()).toEqual([]);
  });

  it('refuses a path that is not well-formed Unicode, creating nothing', async ({
    workspace,
    tool,
    approval,
  }) => {
    const result = await tool.call({ path: 'd\ud800/n.txt', content: 'x' });
    expect(result).toMatchObject({ isError: true, brief: 'Invalid path' });
    expect(approval.requests).toEqual([]);
    expect(await workspace.list()).toEqual([]);
  });

  it.for([
    ['a file name over 255 bytes', `newdir/${'x'.repeat(256)}`],
    ['a name of 128 characters but 256 bytes, two directories deep', `nd/a/${'é'.repeat(128)}`],
  ] as const)(
    'removes the directories it created when the write then fails: %s',
    async ([, file], { workspace, tool }) => {
      const result = await tool.call({ path: file, content: 'x' });
      expect(result).toMatchObject({ isError: true, brief: 'Failed to write file' });
      expect(result.message).toMatch(/ENAMETOOLONG/);
      expect(await workspace.list()).toEqual([]);
    },
  );

  it('removes a directory it made whose answer a dropped connection lost', async ({ workspace }) => {
    const fs = {
      ...forwardingFileSystem(workspace.fs),
      async mkdir(directory: string) {
        await workspace.fs.mkdir(directory);
        if (directory.endsWith('sub'))
          throw Object.assign(new Error(`ECONNRESET: connection lost, mkdir '${directory}'`), {
            code: 'ECONNRESET',
          });
      },
    };
    const result = await new WriteFile(workspace.runtime({ fs })).call({
      path: 'new/sub/x.txt',
      content: 'x',
    });
    expect(result.message).toBe(
      `Failed to write to new/sub/x.txt. Error: ECONNRESET: connection lost, mkdir '${workspace.at('new/sub')}'`,
    );
    expect(await workspace.list()).toEqual([]);
  });

  it('validates arguments and paths with the shared messages', async ({ workspace, tool }) => {
    expect(await tool.call({ path: 'a.txt' })).toMatchObject({ isError: true, brief: 'Invalid arguments' });
    expect(await tool.call({ path: 'a.txt', content: 'x', mode: 'prepend' })).toMatchObject({
      isError: true,
      brief: 'Invalid arguments',
    });
    expect(await tool.call({ path: '', content: 'x' })).toMatchObject({
      isError: true,
      message: 'File path cannot be empty.',
      brief: 'Empty file path',
    });
    expect(await tool.call({ path: 'a\0b', content: 'x' })).toMatchObject({
      isError: true,
      message: '`"a\\u0000b"` is not a valid path.',
      brief: 'Invalid path',
    });
    expect(await workspace.list()).toEqual([]);
  });

  it('describes itself and its parameters', ({ workspace, tool }) => {
    expect(tool.name).toBe('WriteFile');
    expect(tool.description).toContain('\n- Before you overwrite an existing file, read it with ReadFile');
    expect(tool.description).not.toContain('${');
    const relaxed = new WriteFile(workspace.runtime({ readBeforeWrite: false }));
    expect(relaxed.description).not.toContain('read it with ReadFile');
    const schema = tool.parameters as {
      type: string;
      properties: Record<string, { type?: string; enum?: string[]; default?: string; description?: string }>;
      required: string[];
    };
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['path', 'content']);
    expect(Object.keys(schema.properties)).toEqual(['path', 'content', 'mode']);
    expect(schema.properties.mode).toMatchObject({
      type: 'string',
      enum: ['overwrite', 'append'],
      default: 'overwrite',
    });
    for (const property of Object.values(schema.properties)) expect(property.description).toBeTruthy();
  });
});
