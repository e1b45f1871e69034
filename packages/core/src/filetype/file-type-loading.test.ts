import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bmpBytes, gifBytes, it, jpegBytes, pngBytes, webpBytes } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';

const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const DETECT = fileURLToPath(new URL('__fixtures__/detect-kind-loads.mts', import.meta.url));

/** Detects the kinds of `files` in a fresh process: the kinds, and whether file-type was loaded on the way. */
async function detectInFreshProcess(files: string[]): Promise<{ kinds: unknown; fileTypeLoaded: boolean }> {
  const { stdout, stderr } = await promisify(execFile)(TSX, [DETECT, ...files], {
    env: { ...process.env, NODE_DEBUG: 'esm' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { kinds: JSON.parse(stdout), fileTypeLoaded: /\/file-type\/index\.js/.test(stderr) };
}

describe('file-type', () => {
  it('is not loaded to detect a PNG, JPEG, GIF or WebP image', async ({ workspace }) => {
    const files = [
      await workspace.write('a.png', pngBytes()),
      await workspace.write('a.jpg', jpegBytes()),
      await workspace.write('a.gif', gifBytes()),
      await workspace.write('a.webp', webpBytes()),
    ];
    expect(await detectInFreshProcess(files)).toEqual({
      kinds: [
        { kind: 'image', mime: 'image/png' },
        { kind: 'image', mime: 'image/jpeg' },
        { kind: 'image', mime: 'image/gif' },
        { kind: 'image', mime: 'image/webp' },
      ],
      fileTypeLoaded: false,
    });
  });

  it('is loaded for any other format', async ({ workspace }) => {
    const files = [await workspace.write('a.png', pngBytes()), await workspace.write('a.bmp', bmpBytes())];
    expect(await detectInFreshProcess(files)).toEqual({
      kinds: [
        { kind: 'image', mime: 'image/png' },
        { kind: 'image', mime: 'image/bmp' },
      ],
      fileTypeLoaded: true,
    });
  });
});
