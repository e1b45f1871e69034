import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

describe('Glob, Grep and permission rules (docs/permissions.md)', () => {
  test('are Reads: a deny on the directory or file they are given refuses the search', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'private/a.md': 'needle\n', 'public/b.md': 'needle\n' });
    const runtime = workspace.runtime({ permissions: ['deny Read(private/)', 'deny Grep(public/b.md)'] });
    const glob = await new Glob(runtime).call({ pattern: '*.md', directory: 'private' });
    expect([glob.message, glob.brief]).toEqual([
      '`private` is denied by the permission rule `deny Read(private/)`.',
      'Denied by permission rule',
    ]);
    const grep = await new Grep(runtime).call({ pattern: 'needle', path: 'private/a.md' });
    expect(grep.message).toBe('`private/a.md` is denied by the permission rule `deny Read(private/)`.');
    const named = await new Grep(runtime).call({ pattern: 'needle', path: 'public/b.md' });
    expect(named.message).toBe('`public/b.md` is denied by the permission rule `deny Grep(public/b.md)`.');
    expect((await new Glob(runtime).call({ pattern: '*.md', directory: 'public' })).output).toBe('b.md');
  });

  test('leave out, silently, what a deny rule hides from them in a wider search', async ({ workspace }) => {
    await workspace.writeAll({
      'private/a.md': 'needle\n',
      'private/deep/c.md': 'needle\n',
      'public/b.md': 'needle\n',
      'public/d.md': 'needle\n',
    });
    const runtime = workspace.runtime({ permissions: ['deny Read(private/)', 'deny Grep(public/d.md)'] });
    const glob = await new Glob(runtime).call({ pattern: '**/*.md' });
    expect(glob.output).toBe('public/b.md\npublic/d.md');
    const files = await new Grep(runtime).call({ pattern: 'needle', output_mode: 'files_with_matches' });
    expect(files.output).toBe('public/b.md');
    const content = await new Grep(runtime).call({ pattern: 'needle', output_mode: 'content' });
    expect(content.output).toBe('public/b.md:1:needle');
    // Without rules, the same searches find everything.
    const open = workspace.runtime();
    expect((await new Glob(open).call({ pattern: '**/*.md' })).message).toBe(
      'Found 4 matches for pattern `**/*.md`.',
    );
  });
});
