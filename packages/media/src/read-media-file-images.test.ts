import fs from 'node:fs/promises';
import type { ContentPart, ToolReturnValue } from '@kimi-tools/core';
import { backendHas, createTempWorkspace, pngBytes, test, type TempWorkspace } from '@kimi-tools/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fixture } from './__fixtures__/fixture-path.js';
import type { ReadMediaFileOptions } from './options.js';
import { ReadMediaFile } from './read-media-file.js';

const ADVICE =
  'If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the ' +
  'original image size; if you generate or edit images/videos via commands or scripts, read the result back ' +
  'immediately before continuing.';

const SCALED =
  'It was scaled down to fit 2000px on its long edge and 4194304 bytes of base64; to see fine detail, read a part of it with region.';

/** The kit's test, with `tool`: a ReadMediaFile for a model that takes images, with `options`. */
const it = test.extend(
  'tool',
  ({ workspace }) =>
    (options: Omit<ReadMediaFileOptions, 'capabilities'> = {}) =>
      new ReadMediaFile(workspace.runtime(), { capabilities: ['image_in'], ...options }),
);

/** The bytes of the image part of a result. */
function sentBytes(result: ToolReturnValue): Buffer {
  const part = (result.output as ContentPart[])[1]!;
  if (part.type !== 'image_url') throw new Error(`no image part: ${JSON.stringify(result)}`);
  return Buffer.from(part.url.slice(part.url.indexOf(',') + 1), 'base64');
}

function sentBase64Length(result: ToolReturnValue): number {
  const part = (result.output as ContentPart[])[1]!;
  return part.type === 'image_url' ? part.url.length - part.url.indexOf(',') - 1 : NaN;
}

async function copyFixture(workspace: TempWorkspace, name: string): Promise<string> {
  return workspace.write(name, await fs.readFile(fixture(name)));
}

const missingLibrary = () => Promise.reject(new Error("Cannot find module 'sharp'\nRequire stack: ..."));

// One 8000x8000 PNG (3.5 MB, 4.7 MB as base64) for the whole file: made once, as it takes a second to encode.
let big: { tree: TempWorkspace; path: string; bytes: Buffer };
beforeAll(async () => {
  const noise = await sharp({
    create: {
      width: 500,
      height: 500,
      channels: 3,
      background: '#5a8cc8',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .png()
    .toBuffer();
  const bytes = await sharp(noise).resize(8000, 8000, { kernel: 'nearest' }).png().toBuffer();
  const tree = await createTempWorkspace();
  big = { tree, bytes, path: await tree.write('huge.png', bytes) };
});
afterAll(() => big.tree.cleanup());

// Fitting and cropping are seconds of image work, the same on every backend: on the local disk only (the reading of
// images through the backend is read-media-file.test.ts's, and the section without the library below).
describe.runIf(backendHas('slow'))('ReadMediaFile: images fitted to the limits', () => {
  it('sends an 8000x8000 PNG as a 2000px copy within the budget, with both sizes', async ({ tool }) => {
    expect(big.bytes.length * (4 / 3)).toBeGreaterThan(4 * 1024 * 1024);
    const result = await tool().call({ path: big.path });
    const sent = sentBytes(result);
    expect(sentBase64Length(result)).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(await sharp(sent).metadata()).toMatchObject({ format: 'jpeg', width: 2000, height: 2000 });
    expect(result.message).toBe(
      `Loaded image file \`${big.path}\` (image/png, ${big.bytes.length} bytes, original size 8000x8000px). ` +
        `Sent a copy as image/jpeg, 2000x2000px, ${sent.length} bytes. ${SCALED} ${ADVICE}`,
    );
    expect(result.extras).toEqual({
      kind: 'image',
      mime: 'image/png',
      size: big.bytes.length,
      width: 8000,
      height: 8000,
      sent: { mime: 'image/jpeg', size: sent.length, width: 2000, height: 2000 },
    });
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${big.path}">` },
      { type: 'image_url', url: `data:image/jpeg;base64,${sent.toString('base64')}` },
      { type: 'text', text: '</image>' },
    ]);
  });

  it('returns the crop of a region, in original pixels', async ({ tool }) => {
    const region = { x: 4000, y: 10, width: 600, height: 300 };
    const result = await tool().call({ path: big.path, region });
    const sent = sentBytes(result);
    expect(await sharp(sent).metadata()).toMatchObject({ width: 600, height: 300 });
    expect(result.message).toBe(
      `Loaded image file \`${big.path}\` (image/png, ${big.bytes.length} bytes, original size 8000x8000px). ` +
        `Sent the region x=4000, y=10, width=600, height=300 as image/jpeg, 600x300px, ${sent.length} bytes. ` +
        `Its top-left corner is at x=4000, y=10 of the original. ${ADVICE}`,
    );
    expect(result.extras).toMatchObject({ sent: { width: 600, height: 300, region } });
  });

  it('crops exactly: a region of a PNG with alpha is the same pixels as the library cuts out', async ({
    workspace,
    tool,
  }) => {
    const file = await copyFixture(workspace, 'screenshot-alpha.png');
    const region = { x: 40, y: 30, width: 100, height: 80 };
    const result = await tool().call({ path: file, region });
    const sent = sentBytes(result);
    const expected = await sharp(Buffer.from(await workspace.bytes(file)))
      .extract({ left: 40, top: 30, width: 100, height: 80 })
      .raw()
      .toBuffer();
    expect(await sharp(sent).metadata()).toMatchObject({
      format: 'png',
      width: 100,
      height: 80,
      hasAlpha: true,
    });
    expect((await sharp(sent).raw().toBuffer()).equals(expected)).toBe(true);
  });

  it('refuses a region that reaches past the image, saying the upright size', async ({ tool }) => {
    const result = await tool().call({ path: big.path, region: { x: 7900, y: 0, width: 200, height: 10 } });
    expect(result).toMatchObject({
      isError: true,
      message:
        'region x=7900, y=0, width=200, height=10 is not inside the image, which is 8000x8000px (upright): ' +
        'x + width must be at most 8000 and y + height at most 8000.',
      brief: 'Invalid arguments',
    });
  });

  it('sends the original with full_resolution when it fits the byte budget', async ({ workspace, tool }) => {
    // A flat 2400x1000 image: over the long edge, a few kilobytes.
    const bytes = await sharp({ create: { width: 2400, height: 1000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const file = await workspace.write('wide.png', bytes);
    const full = await tool().call({ path: file, full_resolution: true });
    expect(sentBytes(full).equals(bytes)).toBe(true);
    expect(full.message).toBe(
      `Loaded image file \`${file}\` (image/png, ${bytes.length} bytes, original size 2400x1000px). ${ADVICE}`,
    );
    const fitted = await tool().call({ path: file });
    expect(await sharp(sentBytes(fitted)).metadata()).toMatchObject({ width: 2000, height: 833 });
  });

  it('fits the original anyway when full_resolution is over the budget, and says why', async ({ tool }) => {
    const result = await tool().call({ path: big.path, full_resolution: true });
    const sent = sentBytes(result);
    expect(await sharp(sent).metadata()).toMatchObject({ width: 2000, height: 2000 });
    expect(sentBase64Length(result)).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(result.message).toBe(
      `Loaded image file \`${big.path}\` (image/png, ${big.bytes.length} bytes, original size 8000x8000px). ` +
        `Sent a copy as image/jpeg, 2000x2000px, ${sent.length} bytes. full_resolution was not possible: ` +
        `the original is ${Math.ceil(big.bytes.length / 3) * 4} bytes of base64, over the 4194304-byte budget. ` +
        `${SCALED} ${ADVICE}`,
    );
  });

  it('takes its limits from the options', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'screenshot-alpha.png');
    const result = await tool({ maxImageEdge: 100, maxImageBytes: 20_000 }).call({ path: file });
    const sent = sentBytes(result);
    expect(sentBase64Length(result)).toBeLessThanOrEqual(20_000);
    // Transparency keeps it a PNG.
    expect(await sharp(sent).metadata()).toMatchObject({
      format: 'png',
      width: 100,
      height: 75,
      hasAlpha: true,
    });
    expect(result.message).toContain(
      'It was scaled down to fit 100px on its long edge and 20000 bytes of base64; to see fine detail, read a part of it with region.',
    );
  });

  it('steps down the JPEG quality ladder when quality 85 is over the budget', async ({ tool }) => {
    // At 300 px the noise is about 24 KB of base64 at quality 85 and 12 KB at quality 70.
    const result = await tool({ maxImageEdge: 300, maxImageBytes: 20_000 }).call({ path: big.path });
    const quality70 = await sharp(big.bytes)
      .resize({ width: 300, height: 300, fit: 'inside' })
      .toColourspace('srgb')
      .jpeg({ quality: 70, mozjpeg: false })
      .toBuffer();
    expect(sentBytes(result).equals(quality70)).toBe(true);
  });

  it('scales further down when no JPEG quality fits at the long-edge limit', async ({ tool }) => {
    // At 400 px even quality 55 is about 18 KB of base64; the next step, 300 px, fits at quality 70.
    const result = await tool({ maxImageEdge: 400, maxImageBytes: 16_384 }).call({ path: big.path });
    expect(sentBase64Length(result)).toBeLessThanOrEqual(16_384);
    expect(await sharp(sentBytes(result)).metadata()).toMatchObject({
      format: 'jpeg',
      width: 300,
      height: 300,
    });
  });

  it('refuses limits that are not whole numbers above their minimum', ({ workspace }) => {
    const make = (options: ReadMediaFileOptions) => () =>
      new ReadMediaFile(workspace.runtime(), { capabilities: ['image_in'], ...options });
    expect(make({ maxImageBytes: 1000 })).toThrow(
      'ReadMediaFile option maxImageBytes must be a whole number of at least 16384, got 1000.',
    );
    expect(make({ maxImageEdge: 10.5 })).toThrow(
      'ReadMediaFile option maxImageEdge must be a whole number of at least 64, got 10.5.',
    );
  });
});

describe.runIf(backendHas('slow'))('ReadMediaFile: real image files', () => {
  it('turns a photo upright by its EXIF orientation', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'photo-exif-rotated.jpg');
    const result = await tool().call({ path: file });
    const sent = sentBytes(result);
    expect(await sharp(sent).metadata()).toMatchObject({ format: 'jpeg', width: 92, height: 140 });
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/jpeg, 5131 bytes, original size 92x140px). Sent a copy as image/jpeg, ` +
        `92x140px, ${sent.length} bytes. Its EXIF orientation was applied: sizes and coordinates are of the upright ` +
        `image. ${ADVICE}`,
    );
  });

  it('sends a screenshot PNG with alpha as it is when it fits', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'screenshot-alpha.png');
    const result = await tool().call({ path: file });
    expect(sentBytes(result).equals(Buffer.from(await workspace.bytes(file)))).toBe(true);
    expect(result.extras).toEqual({ kind: 'image', mime: 'image/png', size: 39750, width: 320, height: 240 });
  });

  it('sends the first frame of an animated GIF, and says so', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'animated.gif');
    const result = await tool().call({ path: file });
    const sent = sentBytes(result);
    const firstFrame = await sharp(Buffer.from(await workspace.bytes(file)), { page: 0 })
      .removeAlpha()
      .raw()
      .toBuffer();
    const meta = await sharp(sent).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 70, height: 46 });
    expect(meta.pages).toBeUndefined();
    expect((await sharp(sent).removeAlpha().raw().toBuffer()).equals(firstFrame)).toBe(true);
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/gif, 11704 bytes, original size 70x46px). Sent a copy as image/png, ` +
        `70x46px, ${sent.length} bytes. It is animated (3 frames): this is its first frame. ${ADVICE}`,
    );
    expect(result.extras).toMatchObject({ sent: { frame: 1, frames: 3 } });
  });

  it('sends a 16-bit PNG as it is, and crops it to 8 bits a model takes', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'rose-16bit.png');
    const whole = await tool().call({ path: file });
    expect(sentBytes(whole).equals(Buffer.from(await workspace.bytes(file)))).toBe(true);
    expect(whole.extras).toMatchObject({ width: 105, height: 69 });
    const part = await tool().call({ path: file, region: { x: 0, y: 0, width: 50, height: 40 } });
    expect(await sharp(sentBytes(part)).metadata()).toMatchObject({ width: 50, height: 40, depth: 'uchar' });
  });

  it('sends a CMYK JPEG as it is, and a crop of it in sRGB', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'rose-cmyk.jpg');
    const whole = await tool().call({ path: file });
    expect(sentBytes(whole).equals(Buffer.from(await workspace.bytes(file)))).toBe(true);
    expect(whole.extras).toMatchObject({ mime: 'image/jpeg', width: 105, height: 69 });
    const part = await tool().call({ path: file, region: { x: 5, y: 5, width: 60, height: 30 } });
    expect(await sharp(sentBytes(part)).metadata()).toMatchObject({
      format: 'jpeg',
      space: 'srgb',
      channels: 3,
      width: 60,
      height: 30,
    });
  });

  it('converts an AVIF to a format every model takes', async ({ workspace, tool }) => {
    const avif = await sharp(fixture('rose-16bit.png')).avif().toBuffer();
    const file = await workspace.write('rose.avif', avif);
    const result = await tool().call({ path: file });
    const sent = sentBytes(result);
    expect(await sharp(sent).metadata()).toMatchObject({ format: 'jpeg', width: 105, height: 69 });
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/avif, ${avif.length} bytes, original size 105x69px). Sent a copy as ` +
        `image/jpeg, 105x69px, ${sent.length} bytes. It was converted from image/avif to image/jpeg, which models ` +
        `take. ${ADVICE}`,
    );
  });

  it('names the format of a HEIC the image library cannot decode', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'rose.heic');
    const result = await tool().call({ path: file });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('File not readable');
    expect(result.message).toMatch(
      new RegExp(
        `^\`${file.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` is a HEIC/HEIF image \\(image/heic\\) that the image library cannot decode \\(.+\\): ` +
          'it reads AVIF but not HEVC-compressed HEIC\\. Ask the user to convert it to JPEG or PNG \\(for example with ' +
          'heif-convert\\), then read the result\\.$',
      ),
    );
  });
});

describe('ReadMediaFile: without the image library', () => {
  it('sends an image within the budget as it is, without loading the library', async ({
    workspace,
    tool,
  }) => {
    let loads = 0;
    const loadImageLibrary = () => {
      loads++;
      return missingLibrary();
    };
    const bytes = pngBytes(3, 2);
    const file = await workspace.write('small.png', bytes);
    const result = await tool({ loadImageLibrary }).call({ path: file });
    expect(result.isError).toBe(false);
    expect(sentBytes(result).equals(Buffer.from(bytes))).toBe(true);
    expect(loads).toBe(0);
    // A photo that would be turned upright goes as it is when the library is missing.
    const photo = await copyFixture(workspace, 'photo-exif-rotated.jpg');
    const asStored = await tool({ loadImageLibrary }).call({ path: photo });
    expect(sentBytes(asStored).equals(Buffer.from(await workspace.bytes(photo)))).toBe(true);
    expect(loads).toBe(1);
  });

  it('refuses an image over the budget, saying how to enable fitting', async ({ tool }) => {
    const result = await tool({ loadImageLibrary: missingLibrary }).call({ path: big.path });
    expect(result).toMatchObject({
      isError: true,
      output: '',
      brief: 'Image library missing',
      message:
        `\`${big.path}\` is ${Math.ceil(big.bytes.length / 3) * 4} bytes of base64, over the 4194304-byte image ` +
        "budget, and cannot be scaled down: the image library sharp could not be loaded (Cannot find module 'sharp'). " +
        'Tell the user to install the optional image library (npm install sharp, next to @kimi-tools/media) to ' +
        "enable fitting images to the model's limits.",
    });
  });

  it('refuses a region, saying how to enable cropping', async ({ workspace, tool }) => {
    const file = await workspace.write('small.png', pngBytes(8, 8));
    const result = await tool({ loadImageLibrary: missingLibrary }).call({
      path: file,
      region: { x: 0, y: 0, width: 2, height: 2 },
    });
    expect(result).toMatchObject({
      isError: true,
      brief: 'Image library missing',
      message:
        `Cannot crop \`${file}\` to a region: the image library sharp could not be loaded (Cannot find module ` +
        "'sharp'). Tell the user to install the optional image library (npm install sharp, next to " +
        '@kimi-tools/media) to enable cropping and fitting; without region, images within the budget are sent as ' +
        'they are.',
    });
  });
});
