import { execFileSync } from 'node:child_process';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { openFileToRead, type FileToReadResult } from './open-file-to-read.js';

/** The refusal as `[message, brief]`, or `opened` (the handle closed) when the file was opened. */
async function answer(opened: FileToReadResult): Promise<[string, string] | 'opened'> {
  if (!opened.ok) return [opened.error.message, opened.error.brief];
  await opened.file.handle.close();
  return 'opened';
}

describe('openFileToRead: the whole path policy, in ReadFile order (docs/paths.md)', () => {
  test('opens a regular file in the workspace, with the fstat of its descriptor', async ({
    workspace,
    runtime,
  }) => {
    const file = await workspace.write('src/a.txt', 'hello');
    const opened = await openFileToRead(runtime, 'src/a.txt');
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      expect(opened.file.path).toMatchObject({ input: 'src/a.txt', real: file, inside: true });
      expect(opened.file.stats.size).toBe(5);
      const buffer = Buffer.alloc(5);
      await opened.file.handle.read(buffer, 0, 5, 0);
      expect(buffer.toString()).toBe('hello');
    } finally {
      await opened.file.handle.close();
    }
  });

  test('refuses what the path policy refuses: empty, invalid, relative outside, denied', async ({
    workspace,
  }) => {
    await workspace.write(workspace.outside('a.txt'), 'a\n');
    await workspace.write('private/x.txt', 'x\n');
    const runtime = workspace.runtime({ deny: ['**/private/**'] });
    expect(await answer(await openFileToRead(runtime, ''))).toEqual([
      'File path cannot be empty.',
      'Empty file path',
    ]);
    expect(await answer(await openFileToRead(runtime, 'a\0b'))).toEqual([
      '`"a\\u0000b"` is not a valid path.',
      'Invalid path',
    ]);
    expect(await answer(await openFileToRead(runtime, '../outside/a.txt'))).toEqual([
      '`../outside/a.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      'Invalid path',
    ]);
    expect(await answer(await openFileToRead(runtime, 'private/x.txt'))).toEqual([
      '`private/x.txt` is denied by the workspace policy.',
      'Access denied',
    ]);
    // kimi's rule: an absolute path outside may be read, unless the runtime says outside: 'deny'.
    expect(await answer(await openFileToRead(runtime, workspace.outside('a.txt')))).toBe('opened');
    const confined = workspace.runtime({ outside: 'deny' });
    expect(await answer(await openFileToRead(confined, workspace.outside('a.txt')))).toEqual([
      `\`${workspace.outside('a.txt')}\` is outside the workspace.`,
      'Outside workspace',
    ]);
    expect(await answer(await openFileToRead(confined, '/etc/shadow'))).toEqual([
      '`/etc/shadow` is outside the workspace.',
      'Outside workspace',
    ]);
  });

  test('refuses a sensitive file, through a link too, before looking it up', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('.env', 'API_KEY=secret\n');
    await workspace.symlink('notes.txt', '.env');
    const sentence = (path: string) =>
      `\`${path}\` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.`;
    for (const path of ['.env', 'notes.txt', 'missing/id_rsa']) {
      expect(await answer(await openFileToRead(runtime, path))).toEqual([sentence(path), 'Sensitive file']);
    }
    const extra = workspace.runtime({ sensitive: ['*.secret'] });
    await workspace.write('db.secret', 'x');
    expect(await answer(await openFileToRead(extra, 'db.secret'))).toEqual([
      sentence('db.secret'),
      'Sensitive file',
    ]);
  });

  test('says a file is missing, with similar names, and refuses what is not a regular file', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('notes.txt', 'x');
    await workspace.mkdir('src');
    expect(await answer(await openFileToRead(runtime, 'note.txt'))).toEqual([
      '`note.txt` does not exist. Did you mean: notes.txt?',
      'File not found',
    ]);
    expect(await answer(await openFileToRead(runtime, 'src'))).toEqual([
      '`src` is not a file.',
      'Invalid path',
    ]);
  });

  test.skipIf(process.platform === 'win32')(
    'refuses a FIFO without waiting for a writer',
    async ({ workspace, runtime }) => {
      execFileSync('mkfifo', [workspace.at('pipe')]);
      expect(await answer(await openFileToRead(runtime, 'pipe'))).toEqual([
        '`pipe` is not a file.',
        'Invalid path',
      ]);
    },
  );
});
