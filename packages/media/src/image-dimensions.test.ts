import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/fixture-path.js';
import { bmpBytes, gifBytes, jpegBytes, mp4Bytes, pngBytes, webpBytes } from '@kimi-tools/test-kit';
import { readImageDimensions } from './image-dimensions.js';

describe('readImageDimensions', () => {
  it('reads the stored size of each generated image format', async () => {
    expect(await readImageDimensions(pngBytes(3, 2))).toEqual({ width: 3, height: 2, rotated: false });
    expect(await readImageDimensions(jpegBytes(10, 9))).toEqual({ width: 10, height: 9, rotated: false });
    expect(await readImageDimensions(gifBytes())).toEqual({ width: 1, height: 1, rotated: false });
    expect(await readImageDimensions(bmpBytes(5, 4))).toEqual({ width: 5, height: 4, rotated: false });
    expect(await readImageDimensions(webpBytes(7, 6))).toEqual({ width: 7, height: 6, rotated: false });
  });

  it('tells an EXIF orientation that turns the image, keeping the stored size', async () => {
    const photo = await fs.readFile(fixture('photo-exif-rotated.jpg'));
    expect(await readImageDimensions(photo)).toEqual({ width: 140, height: 92, rotated: true });
  });

  it('gives undefined, without throwing, for a video, text or a damaged image', async () => {
    expect(await readImageDimensions(mp4Bytes())).toBeUndefined();
    expect(await readImageDimensions(new TextEncoder().encode('just text'))).toBeUndefined();
    expect(await readImageDimensions(pngBytes(3, 2).subarray(0, 12))).toBeUndefined();
  });
});
