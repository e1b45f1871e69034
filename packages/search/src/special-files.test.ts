import { execFileSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

// FIFOs and devices where Glob and Grep expect regular files (issue: a FIFO must never make a search wait).
// `mkfifo` and `/dev/urandom` exist wherever FIFOs do; Windows has neither.
const unix = process.platform !== 'win32';

function mkfifo(filePath: string): void {
  execFileSync('mkfifo', [filePath]);
}

describe.runIf(unix)('special files', () => {
  it('Grep refuses a FIFO given as its path instead of waiting on it', async ({ workspace }) => {
    mkfifo(workspace.at('pipe'));
    const tool = new Grep(workspace.runtime(), { timeoutMs: 15_000 });
    expect(await tool.call({ pattern: 'x', path: 'pipe' })).toMatchObject({
      isError: true,
      message: '`pipe` is not a file.',
      brief: 'Invalid path',
    });
  });

  it('Glob skips a FIFO named .gitignore or .ignore, and one below the search directory', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'a.txt': '', 'sub/b.txt': '', 'sub/.gitignore': 'b.txt\n' });
    mkfifo(workspace.at('.gitignore'));
    mkfifo(workspace.at('sub/.ignore'));
    const tool = new Glob(workspace.runtime());
    const result = await tool.call({ pattern: '**/*.txt' });
    expect(result).toMatchObject({ isError: false, output: 'a.txt' });
    const below = await tool.call({ pattern: '*.txt', directory: 'sub' });
    expect(below).toMatchObject({ isError: false, output: '' });
  });

  it(
    'Grep is not held up by a FIFO named .gitignore in the tree',
    { timeout: 30_000 },
    async ({ workspace }) => {
      await workspace.writeAll({ 'a.txt': 'zzz\n', 'sub/b.txt': 'zzz\n', 'sub/.gitignore': 'b.txt\n' });
      mkfifo(workspace.at('.gitignore'));
      mkfifo(workspace.at('sub/.ignore'));
      const tool = new Grep(workspace.runtime(), { timeoutMs: 15_000 });
      for (const output_mode of ['files_with_matches', 'count_matches'] as const) {
        const result = await tool.call({ pattern: 'zzz', output_mode });
        expect(result, output_mode).toMatchObject({ isError: false, brief: '' });
        expect(result.output).toBe(output_mode === 'count_matches' ? 'a.txt:1' : 'a.txt');
        expect(result.message).not.toContain('timed out');
      }
    },
  );

  // The timeouts are short: before ripgrep was stopped for them, it read /dev/zero until the timeout, its memory
  // growing by gigabytes, and answered that it had timed out.
  it(
    'Grep skips ignore files that are devices, in the tree and above it, and finds the rest',
    { timeout: 30_000 },
    async ({ workspace }) => {
      await workspace.writeAll({
        'zdir/a.txt': 'foo\n',
        'zdir/sub/b.txt': 'foo\n',
        'zdir/sub/c.txt': 'foo\n',
        'zdir/sub/.gitignore': 'b.txt\n',
        'zdir/sub/deeper/d.txt': 'foo\n',
      });
      await symlink('/dev/zero', workspace.at('zdir/.gitignore'));
      await symlink('/dev/zero', workspace.at('zdir/sub/.ignore'));
      await symlink('/dev/urandom', workspace.at('zdir/sub/deeper/.rgignore'));
      const tool = new Grep(workspace.runtime(), { timeoutMs: 6_000 });
      expect(await tool.call({ pattern: 'foo', path: 'zdir', output_mode: 'count_matches' })).toMatchObject({
        isError: false,
        output: 'a.txt:1\nsub/c.txt:1\nsub/deeper/d.txt:1',
        message: 'Found 3 total occurrences across 3 files.',
        extras: { search: 'portable' },
      });
      expect(
        await tool.call({ pattern: 'foo', path: 'zdir/sub', output_mode: 'count_matches' }),
      ).toMatchObject({
        isError: false,
        output: 'c.txt:1\ndeeper/d.txt:1',
      });
    },
  );

  it.runIf(process.platform === 'linux')(
    'Grep skips a .gitignore that is a device node itself',
    { timeout: 30_000 },
    async ({ workspace, skip }) => {
      await workspace.writeAll({ 'a.txt': 'foo\n' });
      try {
        // The node of /dev/zero (Linux: character device 1, 5); making one needs a privilege a container may lack.
        execFileSync('mknod', [workspace.at('.gitignore'), 'c', '1', '5'], { stdio: 'ignore' });
      } catch {
        skip('mknod is not allowed here');
      }
      const tool = new Grep(workspace.runtime(), { timeoutMs: 6_000 });
      expect(await tool.call({ pattern: 'foo' })).toMatchObject({ isError: false, output: 'a.txt' });
    },
  );

  it('Glob reads an ignore file only when it is a regular file, and at most its first MiB', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      'a.txt': '',
      'dev/b.txt': '',
      'big/c.txt': '',
      'big/d.txt': '',
      // The rule for d.txt lies past the first MiB: it is not read.
      'big/.gitignore': `c.txt\n${'#'.repeat(1024 * 1024)}\nd.txt\n`,
    });
    await symlink('/dev/urandom', workspace.at('dev/.gitignore'));
    const tool = new Glob(workspace.runtime());
    expect(await tool.call({ pattern: '**/*.txt', directory: 'dev' })).toMatchObject({ output: 'b.txt' });
    expect(await tool.call({ pattern: '**/*.txt', directory: 'big' })).toMatchObject({ output: 'd.txt' });
  });
});
