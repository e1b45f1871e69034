import path from 'node:path';
import { FileActions, FileHistory, SessionApproval } from '@kimi-tools/core';
import { backendHas, inPlaceFails, markRead, recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

/** The kit's test, with `tool`: a WriteFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

describe('WriteFile workspace policy', () => {
  it('refuses a relative path that leads outside the workspace', async ({ workspace, tool }) => {
    const result = await tool.call({ path: '../outside.txt', content: 'x' });
    expect(result).toMatchObject({
      isError: true,
      message:
        '`../outside.txt` is not an absolute path. You must provide an absolute path to write a file outside the working directory.',
      brief: 'Invalid path',
    });
    await expect(workspace.fs.stat(path.join(workspace.root, 'outside.txt'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('allows an absolute path outside with EDIT_OUTSIDE, listing created directories absolutely', async ({
    workspace,
    tool,
    approval,
  }) => {
    const file = path.join(workspace.root, 'elsewhere', 'out.txt');
    const result = await tool.call({ path: file, content: 'out' });
    expect(result.message).toBe(
      `File successfully overwritten. Current size: 3 bytes. Created directories: ${path.join(workspace.root, 'elsewhere')}.`,
    );
    expect(approval.requests.map((request) => [request.action, request.description])).toEqual([
      [FileActions.EDIT_OUTSIDE, `Write file \`${file}\``],
    ]);
    expect(await workspace.read(file)).toBe('out');
  });

  it("refuses outside paths under outside: 'deny'", async ({ workspace }) => {
    const tool = new WriteFile(workspace.runtime({ outside: 'deny' }));
    const file = path.join(workspace.root, 'out.txt');
    expect(await tool.call({ path: file, content: 'x' })).toMatchObject({
      isError: true,
      message: `\`${file}\` is outside the workspace.`,
      brief: 'Outside workspace',
    });
    await expect(workspace.fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses paths matching deny globs', async ({ workspace }) => {
    const tool = new WriteFile(workspace.runtime({ deny: ['**/.git/**'] }));
    expect(await tool.call({ path: '.git/config', content: 'x' })).toMatchObject({
      isError: true,
      message: '`.git/config` is denied by the workspace policy.',
      brief: 'Access denied',
    });
    await expect(workspace.fs.stat(workspace.at('.git'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('asks EDIT for an additional directory added to the live list', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const extra = path.join(workspace.root, 'extra');
    await workspace.mkdir(extra);
    runtime.additionalDirs.push(extra);
    await tool.call({ path: path.join(extra, 'x.txt'), content: 'x' });
    expect(approval.requests.map((request) => request.action)).toEqual([FileActions.EDIT]);
  });
});

describe('WriteFile approval', () => {
  it('returns the rejection without feedback and leaves the file untouched', async ({ workspace }) => {
    const runtime = workspace.runtime({ approval: recordingApproval({ kind: 'reject' }) });
    const tool = new WriteFile(runtime);
    const file = await workspace.write('a.txt', 'original', { readBy: runtime });
    expect(await tool.call({ path: 'a.txt', content: 'changed' })).toEqual({
      isError: true,
      output: '',
      message:
        'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.',
      brief: 'Rejected by user',
      display: [{ type: 'brief', text: 'Rejected by user' }],
    });
    expect(await workspace.read(file)).toBe('original');
  });

  it('returns the rejection with feedback, and creates no directories', async ({ workspace }) => {
    const tool = new WriteFile(
      workspace.runtime({
        approval: recordingApproval({ kind: 'reject', feedback: 'not there' }),
      }),
    );
    expect(await tool.call({ path: 'new/dir/a.txt', content: 'x' })).toMatchObject({
      isError: true,
      message: 'The tool call is rejected by the user. User feedback: not there',
      brief: 'Rejected: not there',
    });
    expect(await workspace.list()).toEqual([]);
  });

  it('honours approve-for-session through SessionApproval', async ({ workspace }) => {
    const asked: string[] = [];
    const approval = new SessionApproval(async (request) => {
      asked.push(request.path);
      return { kind: 'approve_for_session' };
    });
    const tool = new WriteFile(workspace.runtime({ approval }));
    expect((await tool.call({ path: 'one.txt', content: '1' })).isError).toBe(false);
    expect((await tool.call({ path: 'two.txt', content: '2' })).isError).toBe(false);
    expect(asked).toEqual([workspace.at('one.txt')]);
    expect(await workspace.read(workspace.at('two.txt'))).toBe('2');
  });
});

describe('WriteFile read state', () => {
  it('refuses to overwrite a file that was never read', async ({ workspace, tool, approval }) => {
    await workspace.write('a.txt', 'original');
    expect(await tool.call({ path: 'a.txt', content: 'x' })).toMatchObject({
      isError: true,
      message: '`a.txt` has not been read yet. Read it first before writing to it.',
      brief: 'File not read',
    });
    expect(approval.requests).toEqual([]);
    expect(await workspace.read(workspace.at('a.txt'))).toBe('original');
  });

  it('overwrites without a read when the runtime does not require one', async ({ workspace }) => {
    const tool = new WriteFile(workspace.runtime({ readBeforeWrite: false }));
    await workspace.write('a.txt', 'original');
    expect((await tool.call({ path: 'a.txt', content: 'x' })).isError).toBe(false);
    expect(await workspace.read(workspace.at('a.txt'))).toBe('x');
  });

  it('refuses a file changed on disk since it was read', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('a.txt', 'original', { readBy: runtime });
    await workspace.write(file, 'edited by the user');
    expect(await tool.call({ path: 'a.txt', content: 'mine' })).toMatchObject({
      isError: true,
      message:
        '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
    });
    expect(await workspace.read(file)).toBe('edited by the user');
  });

  it('accepts a file only touched since it was read', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('a.txt', 'original', { readBy: runtime });
    const later = Date.now() / 1000 + 120;
    await workspace.fs.utimes(file, later, later);
    expect((await tool.call({ path: 'a.txt', content: 'mine' })).isError).toBe(false);
    expect(await workspace.read(file)).toBe('mine');
  });

  it('writes nothing when the file changes while the approval is pending', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const approval = recordingApproval(async () => {
      await workspace.write(file, 'typed while the prompt was open');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    const tool = new WriteFile(runtime);
    await workspace.write(file, 'original', { readBy: runtime });
    expect(await tool.call({ path: 'a.txt', content: 'mine' })).toMatchObject({
      isError: true,
      message:
        '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
    });
    expect(await workspace.read(file)).toBe('typed while the prompt was open');
  });

  it('does not lose an append made while another append awaits approval', async ({ workspace }) => {
    const file = workspace.at('log.txt');
    const approval = recordingApproval(async () => {
      await workspace.append(file, 'someone else\n');
      return { kind: 'approve' };
    });
    const tool = new WriteFile(workspace.runtime({ approval }));
    await workspace.write(file, 'start\n');
    expect((await tool.call({ path: 'log.txt', content: 'mine\n', mode: 'append' })).brief).toBe(
      'File modified',
    );
    expect(await workspace.read(file)).toBe('start\nsomeone else\n');
  });
});

describe('WriteFile files on disk', () => {
  it('keeps mode 0755', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('run.sh', '#!/bin/sh\necho old\n');
    await workspace.fs.chmod(file, 0o755);
    await markRead(runtime, file);
    await tool.call({ path: 'run.sh', content: '#!/bin/sh\necho new\n' });
    expect((await workspace.fs.stat(file)).mode & 0o7777).toBe(0o755);
    expect(await workspace.read(file)).toBe('#!/bin/sh\necho new\n');
  });

  it('writes through a symlink and keeps the link', async ({ workspace, runtime, tool }) => {
    const target = await workspace.write('target.txt', 'old');
    await workspace.symlink('link.txt', 'target.txt');
    await markRead(runtime, workspace.at('link.txt'));
    const result = await tool.call({ path: 'link.txt', content: 'new' });
    expect(result.isError).toBe(false);
    expect((await workspace.fs.lstat(workspace.at('link.txt'))).isSymbolicLink()).toBe(true);
    expect(await workspace.read(target)).toBe('new');
  });

  it.runIf(backendHas('hard-links'))('keeps hard links shared', async ({ workspace, runtime, tool }) => {
    await workspace.write('a.txt', 'old');
    await workspace.link('b.txt', 'a.txt');
    await markRead(runtime, workspace.at('a.txt'));
    await tool.call({ path: 'a.txt', content: 'new' });
    expect(await workspace.read(workspace.at('b.txt'))).toBe('new');
  });

  // The growth is written first and goes through; the overwrite of the old bytes, or the cut, fails.
  for (const [step, operation, syscall, failing, content] of [
    ['overwrite', 'write', 'write', 2, 'line one\nand a much longer second line\n'],
    ['cut', 'truncate', 'ftruncate', 1, 'x\n'],
  ] as const) {
    it.runIf(backendHas('hard-links'))(
      `leaves a hard-linked file as it was when the ${step} of its rewrite in place fails`,
      async ({ workspace }) => {
        const file = workspace.at('a.txt');
        const old = 'line one\nline two\nline three\n';
        const runtime = workspace.runtime({
          fs: inPlaceFails(workspace.fs, file, operation, (call) => call === failing),
        });
        await workspace.write('a.txt', old, { readBy: runtime });
        await workspace.link('b.txt', 'a.txt');
        const result = await new WriteFile(runtime).call({ path: 'a.txt', content });
        expect(result.message).toBe(`Failed to write to a.txt. Error: EIO: i/o error, ${syscall} '${file}'`);
        expect(await workspace.read(workspace.at('b.txt'))).toBe(old);
      },
    );
  }

  it('saves the previous bytes in the history and restores them', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    const tool = new WriteFile(runtime);
    const file = workspace.at('a.txt');
    await tool.call({ path: 'a.txt', content: 'v1\n' });
    await tool.call({ path: 'a.txt', content: 'v2\n', mode: 'append' });
    await markRead(runtime, file);
    await tool.call({ path: 'a.txt', content: 'v3\n' });
    expect(history.list().map((entry) => [entry.path, entry.version, entry.size])).toEqual([
      [file, 1, null],
      [file, 2, 3],
      [file, 3, 6],
    ]);
    await history.restore(file);
    expect(await workspace.read(file)).toBe('v1\nv2\n');
    await history.restore(file, 1);
    await expect(workspace.fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates, appends to and overwrites a file whose name has the longest length allowed (255 bytes)', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const name = `${'é'.repeat(125)}.txt.`;
    expect(Buffer.byteLength(name)).toBe(255);
    expect((await tool.call({ path: name, content: 'one\n' })).isError).toBe(false);
    expect((await tool.call({ path: name, content: 'two\n', mode: 'append' })).isError).toBe(false);
    await markRead(runtime, workspace.at(name));
    expect((await tool.call({ path: name, content: 'three\n' })).isError).toBe(false);
    expect(await workspace.read(workspace.at(name))).toBe('three\n');
    expect(await workspace.list()).toEqual([name]);
  });
});
