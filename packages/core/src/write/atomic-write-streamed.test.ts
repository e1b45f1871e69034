import { promises as fs } from 'node:fs';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { OpenFile } from '../fs/file-system.js';
import { writeFileAtomic, type StreamedContent } from './atomic-write.js';
import { isAtomicTempName } from './temp-files.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** Content written in small pieces, as a streamed edit writes it. */
function streamed(text: string, failAfter?: number): StreamedContent {
  const data = Buffer.from(text);
  return {
    size: data.length,
    async writeTo(handle: OpenFile) {
      for (let at = 0; at < data.length; at += 3) {
        if (failAfter !== undefined && at >= failAfter) throw new Error('disk full (injected)');
        await handle.write(data, at, Math.min(3, data.length - at), at);
      }
    },
  };
}

describe('writeFileAtomic with streamed content', () => {
  test('replaces the file through a temp file and keeps its mode', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'old content');
    await fs.chmod(file, 0o640);
    await writeFileAtomic(localFileSystem, file, streamed('new, longer content'));
    expect(await fs.readFile(file, 'utf8')).toBe('new, longer content');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
    expect((await fs.readdir(workspace.workDir)).filter(isAtomicTempName)).toEqual([]);
  });

  test('rewrites a hard-linked file in place, both names seeing it, and leaves no temp file', async ({
    workspace,
  }) => {
    const first = await workspace.write('first.txt', 'shared old content that is long');
    const second = workspace.at('second.txt');
    await fs.link(first, second);
    await writeFileAtomic(localFileSystem, first, streamed('short'));
    expect(await fs.readFile(second, 'utf8')).toBe('short');
    await writeFileAtomic(localFileSystem, first, streamed('grown well past the old end of the file'));
    expect(await fs.readFile(second, 'utf8')).toBe('grown well past the old end of the file');
    expect((await fs.stat(first)).ino).toBe((await fs.stat(second)).ino);
    expect((await fs.readdir(workspace.workDir)).filter(isAtomicTempName)).toEqual([]);
  });

  test('a failure while streaming leaves the target untouched and no temp file', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'old content');
    await expect(writeFileAtomic(localFileSystem, file, streamed('new content', 6))).rejects.toThrow(
      'disk full (injected)',
    );
    expect(await fs.readFile(file, 'utf8')).toBe('old content');
    const linked = await workspace.write('b.txt', 'linked old');
    await fs.link(linked, workspace.at('c.txt'));
    await expect(writeFileAtomic(localFileSystem, linked, streamed('linked new', 3))).rejects.toThrow(
      'disk full (injected)',
    );
    expect(await fs.readFile(workspace.at('c.txt'), 'utf8')).toBe('linked old');
    expect((await fs.readdir(workspace.workDir)).filter(isAtomicTempName)).toEqual([]);
  });
});
