import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileActions, FileHistory, SessionApproval, yoloApproval } from '@kimi-tools/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, markRead, recordingApproval, setUp, type Sandbox } from './__fixtures__/harness.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

describe('WriteFile workspace policy', () => {
  it('refuses a relative path that leads outside the workspace', async () => {
    const { tool } = setUp(sandbox, yoloApproval());
    const result = await tool.call({ path: '../outside.txt', content: 'x' });
    expect(result).toMatchObject({
      isError: true,
      message:
        '`../outside.txt` is not an absolute path. You must provide an absolute path to write a file outside the working directory.',
      brief: 'Invalid path',
    });
    await expect(fs.stat(path.join(sandbox.root, 'outside.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('allows an absolute path outside with EDIT_OUTSIDE, listing created directories absolutely', async () => {
    const approval = recordingApproval();
    const { tool } = setUp(sandbox, approval);
    const file = path.join(sandbox.root, 'elsewhere', 'out.txt');
    const result = await tool.call({ path: file, content: 'out' });
    expect(result.message).toBe(
      `File successfully overwritten. Current size: 3 bytes. Created directories: ${path.join(sandbox.root, 'elsewhere')}.`,
    );
    expect(approval.requests.map((request) => [request.action, request.description])).toEqual([
      [FileActions.EDIT_OUTSIDE, `Write file \`${file}\``],
    ]);
    expect(await fs.readFile(file, 'utf8')).toBe('out');
  });

  it("refuses outside paths under outside: 'deny'", async () => {
    const { tool } = setUp(sandbox, yoloApproval(), { outside: 'deny' });
    const file = path.join(sandbox.root, 'out.txt');
    expect(await tool.call({ path: file, content: 'x' })).toMatchObject({
      isError: true,
      message: `\`${file}\` is outside the workspace.`,
      brief: 'Outside workspace',
    });
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses paths matching deny globs', async () => {
    const { tool } = setUp(sandbox, yoloApproval(), { deny: ['**/.git/**'] });
    expect(await tool.call({ path: '.git/config', content: 'x' })).toMatchObject({
      isError: true,
      message: '`.git/config` is denied by the workspace policy.',
      brief: 'Access denied',
    });
    await expect(fs.stat(sandbox.at('.git'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('asks EDIT for an additional directory added to the live list', async () => {
    const approval = recordingApproval();
    const { runtime, tool } = setUp(sandbox, approval);
    const extra = path.join(sandbox.root, 'extra');
    await fs.mkdir(extra);
    runtime.additionalDirs.push(extra);
    await tool.call({ path: path.join(extra, 'x.txt'), content: 'x' });
    expect(approval.requests.map((request) => request.action)).toEqual([FileActions.EDIT]);
  });
});

describe('WriteFile approval', () => {
  it('returns the rejection without feedback and leaves the file untouched', async () => {
    const { runtime, tool } = setUp(
      sandbox,
      recordingApproval(async () => ({ kind: 'reject' })),
    );
    const file = sandbox.at('a.txt');
    await fs.writeFile(file, 'original');
    await markRead(runtime, file);
    expect(await tool.call({ path: 'a.txt', content: 'changed' })).toEqual({
      isError: true,
      output: '',
      message:
        'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.',
      brief: 'Rejected by user',
      display: [{ type: 'brief', text: 'Rejected by user' }],
    });
    expect(await fs.readFile(file, 'utf8')).toBe('original');
  });

  it('returns the rejection with feedback, and creates no directories', async () => {
    const { tool } = setUp(
      sandbox,
      recordingApproval(async () => ({ kind: 'reject', feedback: 'not there' })),
    );
    expect(await tool.call({ path: 'new/dir/a.txt', content: 'x' })).toMatchObject({
      isError: true,
      message: 'The tool call is rejected by the user. User feedback: not there',
      brief: 'Rejected: not there',
    });
    expect(await fs.readdir(sandbox.workDir)).toEqual([]);
  });

  it('honours approve-for-session through SessionApproval', async () => {
    const asked: string[] = [];
    const approval = new SessionApproval(async (request) => {
      asked.push(request.path);
      return { kind: 'approve_for_session' };
    });
    const { tool } = setUp(sandbox, approval);
    expect((await tool.call({ path: 'one.txt', content: '1' })).isError).toBe(false);
    expect((await tool.call({ path: 'two.txt', content: '2' })).isError).toBe(false);
    expect(asked).toEqual([sandbox.at('one.txt')]);
    expect(await fs.readFile(sandbox.at('two.txt'), 'utf8')).toBe('2');
  });
});

describe('WriteFile read state', () => {
  it('refuses to overwrite a file that was never read', async () => {
    const approval = recordingApproval();
    const { tool } = setUp(sandbox, approval);
    await fs.writeFile(sandbox.at('a.txt'), 'original');
    expect(await tool.call({ path: 'a.txt', content: 'x' })).toMatchObject({
      isError: true,
      message: '`a.txt` has not been read yet. Read it first before writing to it.',
      brief: 'File not read',
    });
    expect(approval.requests).toEqual([]);
    expect(await fs.readFile(sandbox.at('a.txt'), 'utf8')).toBe('original');
  });

  it('overwrites without a read when the runtime does not require one', async () => {
    const { tool } = setUp(sandbox, yoloApproval(), { readBeforeWrite: false });
    await fs.writeFile(sandbox.at('a.txt'), 'original');
    expect((await tool.call({ path: 'a.txt', content: 'x' })).isError).toBe(false);
    expect(await fs.readFile(sandbox.at('a.txt'), 'utf8')).toBe('x');
  });

  it('refuses a file changed on disk since it was read', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    const file = sandbox.at('a.txt');
    await fs.writeFile(file, 'original');
    await markRead(runtime, file);
    await fs.writeFile(file, 'edited by the user');
    expect(await tool.call({ path: 'a.txt', content: 'mine' })).toMatchObject({
      isError: true,
      message:
        '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
    });
    expect(await fs.readFile(file, 'utf8')).toBe('edited by the user');
  });

  it('accepts a file only touched since it was read', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    const file = sandbox.at('a.txt');
    await fs.writeFile(file, 'original');
    await markRead(runtime, file);
    const later = new Date(Date.now() + 120_000);
    await fs.utimes(file, later, later);
    expect((await tool.call({ path: 'a.txt', content: 'mine' })).isError).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe('mine');
  });

  it('writes nothing when the file changes while the approval is pending', async () => {
    const file = sandbox.at('a.txt');
    const approval = recordingApproval(async () => {
      await fs.writeFile(file, 'typed while the prompt was open');
      return { kind: 'approve' };
    });
    const { runtime, tool } = setUp(sandbox, approval);
    await fs.writeFile(file, 'original');
    await markRead(runtime, file);
    expect(await tool.call({ path: 'a.txt', content: 'mine' })).toMatchObject({
      isError: true,
      message:
        '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
    });
    expect(await fs.readFile(file, 'utf8')).toBe('typed while the prompt was open');
  });

  it('does not lose an append made while another append awaits approval', async () => {
    const file = sandbox.at('log.txt');
    const approval = recordingApproval(async () => {
      await fs.appendFile(file, 'someone else\n');
      return { kind: 'approve' };
    });
    const { tool } = setUp(sandbox, approval);
    await fs.writeFile(file, 'start\n');
    expect((await tool.call({ path: 'log.txt', content: 'mine\n', mode: 'append' })).brief).toBe(
      'File modified',
    );
    expect(await fs.readFile(file, 'utf8')).toBe('start\nsomeone else\n');
  });
});

describe('WriteFile files on disk', () => {
  it('keeps mode 0755', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    const file = sandbox.at('run.sh');
    await fs.writeFile(file, '#!/bin/sh\necho old\n');
    await fs.chmod(file, 0o755);
    await markRead(runtime, file);
    await tool.call({ path: 'run.sh', content: '#!/bin/sh\necho new\n' });
    expect((await fs.stat(file)).mode & 0o7777).toBe(0o755);
    expect(await fs.readFile(file, 'utf8')).toBe('#!/bin/sh\necho new\n');
  });

  it('writes through a symlink and keeps the link', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    const target = sandbox.at('target.txt');
    await fs.writeFile(target, 'old');
    await fs.symlink('target.txt', sandbox.at('link.txt'));
    await markRead(runtime, sandbox.at('link.txt'));
    const result = await tool.call({ path: 'link.txt', content: 'new' });
    expect(result.isError).toBe(false);
    expect((await fs.lstat(sandbox.at('link.txt'))).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(target, 'utf8')).toBe('new');
  });

  it('keeps hard links shared', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    await fs.writeFile(sandbox.at('a.txt'), 'old');
    await fs.link(sandbox.at('a.txt'), sandbox.at('b.txt'));
    await markRead(runtime, sandbox.at('a.txt'));
    await tool.call({ path: 'a.txt', content: 'new' });
    expect(await fs.readFile(sandbox.at('b.txt'), 'utf8')).toBe('new');
  });

  it('saves the previous bytes in the history and restores them', async () => {
    const history = new FileHistory();
    const { runtime, tool } = setUp(sandbox, yoloApproval(), { history });
    const file = sandbox.at('a.txt');
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
    expect(await fs.readFile(file, 'utf8')).toBe('v1\nv2\n');
    await history.restore(file, 1);
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates, appends to and overwrites a file whose name has the longest length allowed (255 bytes)', async () => {
    const { runtime, tool } = setUp(sandbox, yoloApproval());
    const name = `${'é'.repeat(125)}.txt.`;
    expect(Buffer.byteLength(name)).toBe(255);
    expect((await tool.call({ path: name, content: 'one\n' })).isError).toBe(false);
    expect((await tool.call({ path: name, content: 'two\n', mode: 'append' })).isError).toBe(false);
    await markRead(runtime, sandbox.at(name));
    expect((await tool.call({ path: name, content: 'three\n' })).isError).toBe(false);
    expect(await fs.readFile(sandbox.at(name), 'utf8')).toBe('three\n');
    expect(await fs.readdir(sandbox.workDir)).toEqual([name]);
  });
});
