import { stampOfStats } from '@kimi-tools/core/toolkit';
import {
  backendHas,
  pngBytes,
  rewriteKeepingMtime,
  SFTP_CAPABILITIES,
  test,
  translatedRuntime,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './index.js';
import { LINE_INDEXES } from './line-index.js';

const row = (number: number, text: string) => `${String(number).padStart(6)}\t${text}\n`;

// The runtime's file system shows the workspace at /virtual: a read that went to the disk directly would find nothing.
describe.each([
  ['the local disk', {}],
  ['SFTP', { capabilities: SFTP_CAPABILITIES }],
])('ReadFile through the runtime’s file system (as %s can do)', (_name, options) => {
  test('reads a file forward and back, and records the read for the write tools', async ({ workspace }) => {
    await workspace.write('a.txt', 'one\ntwo\nthree\n');
    const { runtime, at, files } = translatedRuntime(workspace, options);
    const tool = new ReadFile(runtime);
    expect((await tool.call({ path: 'a.txt' })).output).toBe(row(1, 'one') + row(2, 'two') + row(3, 'three'));
    expect((await tool.call({ path: at('a.txt'), line_offset: -1 })).output).toBe(row(3, 'three'));
    expect(await runtime.fileState.check(at('a.txt'))).toBe('ok');
    if (backendHas('exact-times')) await rewriteKeepingMtime(workspace.at('a.txt'), 'one\ntwo\nTHREE\n');
    else await workspace.write('a.txt', 'one\ntwo\nTHREE\n');
    expect(await runtime.fileState.check(at('a.txt'))).toBe('modified');
    expect(files.operations).toContain('open /virtual/work/a.txt');
  });

  test('lists a directory, suggests a near name, and refuses a sensitive file and an image', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      'src/.gitignore': 'build/\n',
      'src/main.ts': 'export {};\n',
      'src/build/out.js': '',
      '.env': 'TOKEN=1\n',
      'logo.png': pngBytes(2, 2),
    });
    const { runtime, at, files } = translatedRuntime(workspace, options);
    const tool = new ReadFile(runtime);
    expect((await tool.call({ path: 'src' })).message).toBe(
      '`src` is not a file. It is a directory holding:\n.gitignore\nmain.ts\nUse the Glob tool to find files in it.',
    );
    expect((await tool.call({ path: 'src/main.js' })).message).toBe(
      '`src/main.js` does not exist. Did you mean: src/main.ts?',
    );
    expect((await tool.call({ path: '.env' })).brief).toBe('Sensitive file');
    expect((await tool.call({ path: 'logo.png' })).message).toBe(
      '`logo.png` is a image file. Use other appropriate tools to read image or video files.',
    );
    expect(files.operations).toContain('readdir /virtual/work/src');
    expect(files.operations).toContain('open /virtual/work/src/.gitignore');
    expect(files.paths).toContain(at('logo.png'));
  });

  // 70 MiB, over the content-hash limit: on the local disk its stats tell versions apart, over SFTP they cannot.
  test.runIf(backendHas('huge-files'))(
    'keeps the line index of a large file for the next read of the same version only where its stats tell versions apart',
    async ({ workspace }) => {
      await workspace.write('big.log', Buffer.alloc(70 << 20, 'abcdefghijklmnopqrstuvwxyz\n'));
      const { runtime, at } = translatedRuntime(workspace, options);
      const tool = new ReadFile(runtime);
      expect((await tool.call({ path: 'big.log', line_offset: 2_500_000, n_lines: 1 })).output).toBe(
        row(2_500_000, 'abcdefghijklmnopqrstuvwxyz'),
      );
      const version = stampOfStats(await runtime.fs.stat(at('big.log')));
      const kept = runtime.slot(LINE_INDEXES).get(at('big.log'), version)?.totalLines;
      expect(kept).toBe('capabilities' in options ? undefined : Math.ceil((70 << 20) / 27));
      expect((await tool.call({ path: 'big.log', line_offset: 2_700_000, n_lines: 1 })).output).toBe(
        row(2_700_000, 'abcdefghijklmnopqrstuvwxyz'),
      );
    },
  );
});
