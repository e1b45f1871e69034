import {
  bmpBytes,
  gifBytes,
  jpegBytes,
  mp4Bytes,
  pngBytes,
  test,
  webmBytes,
  webpBytes,
  type WorkspaceRuntimeOptions,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { MAX_MEDIA_BYTES } from './limits.js';
import type { Capability } from './availability.js';
import type { ReadMediaFileOptions } from './options.js';
import { ReadMediaFile } from './read-media-file.js';

const ADVICE =
  'If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the ' +
  'original image size; if you generate or edit images/videos via commands or scripts, read the result back ' +
  'immediately before continuing.';

/**
 * The kit's test, with `tool`: makes a ReadMediaFile for a model taking `capabilities`, on a runtime of the workspace
 * with `options` (`uploadVideo` goes to the tool).
 */
const it = test.extend(
  'tool',
  ({ workspace }) =>
    (
      capabilities: Capability[] = ['image_in', 'video_in'],
      { uploadVideo, ...options }: WorkspaceRuntimeOptions & Pick<ReadMediaFileOptions, 'uploadVideo'> = {},
      toolOptions: Omit<ReadMediaFileOptions, 'capabilities' | 'uploadVideo'> = {},
    ) =>
      new ReadMediaFile(workspace.runtime(options), {
        capabilities,
        ...(uploadVideo ? { uploadVideo } : {}),
        ...toolOptions,
      }),
);

function dataUrl(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

describe('ReadMediaFile: images', () => {
  const images: [string, string, Uint8Array, string][] = [
    ['PNG', 'pic.png', pngBytes(3, 2), 'image/png'],
    ['JPEG', 'pic.jpg', jpegBytes(10, 9), 'image/jpeg'],
    ['GIF', 'pic.gif', gifBytes(), 'image/gif'],
    ['WebP', 'pic.webp', webpBytes(7, 6), 'image/webp'],
    ['BMP', 'pic.bmp', bmpBytes(5, 4), 'image/bmp'],
  ];

  it.for(images)(
    'loads a %s as an image_url data URL with its original size',
    async ([, name, bytes, mime], { workspace, tool }) => {
      const file = await workspace.write(name, bytes);
      const result = await tool().call({ path: name });
      const dims = {
        'pic.png': '3x2',
        'pic.jpg': '10x9',
        'pic.gif': '1x1',
        'pic.webp': '7x6',
        'pic.bmp': '5x4',
      }[name];
      expect(result).toEqual({
        isError: false,
        output: [
          { type: 'text', text: `<image path="${file}">` },
          { type: 'image_url', url: dataUrl(mime, bytes) },
          { type: 'text', text: '</image>' },
        ],
        message: `Loaded image file \`${file}\` (${mime}, ${bytes.length} bytes, original size ${dims}px). ${ADVICE}`,
        brief: '',
        display: [],
        extras: {
          kind: 'image',
          mime,
          size: bytes.length,
          width: Number(dims!.split('x')[0]),
          height: Number(dims!.split('x')[1]),
        },
      });
    },
  );

  it('recognises extensionless images by their content', async ({ workspace, tool }) => {
    const cases: [string, Uint8Array, string][] = [
      ['screenshot', pngBytes(), 'image/png'],
      ['photo', jpegBytes(), 'image/jpeg'],
      ['anim', gifBytes(), 'image/gif'],
      ['sticker', webpBytes(), 'image/webp'],
      ['bitmap', bmpBytes(), 'image/bmp'],
    ];
    for (const [name, bytes, mime] of cases) {
      const file = await workspace.write(name, bytes);
      const result = await tool(['image_in']).call({ path: file });
      expect(result.isError).toBe(false);
      expect(result.output).toEqual([
        { type: 'text', text: `<image path="${file}">` },
        { type: 'image_url', url: dataUrl(mime, bytes) },
        { type: 'text', text: '</image>' },
      ]);
    }
  });

  it('believes the content over a wrong image extension', async ({ workspace, tool }) => {
    const bytes = pngBytes(4, 4);
    const file = await workspace.write('really-a-png.jpg', bytes);
    const result = await tool().call({ path: file });
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/png, ${bytes.length} bytes, original size 4x4px). ${ADVICE}`,
    );
  });

  it('leaves out the size hint when the dimensions cannot be read', async ({ workspace, tool }) => {
    // The extension makes it an image; the bytes are a PNG cut short after its signature.
    const bytes = pngBytes().subarray(0, 12);
    const file = await workspace.write('cut.png', bytes);
    const result = await tool().call({ path: file });
    expect(result.isError).toBe(false);
    expect(result.message).toBe(`Loaded image file \`${file}\` (image/png, 12 bytes). ${ADVICE}`);
  });

  it('loads an image through a symlink and names the real file', async ({ workspace, tool }) => {
    const target = await workspace.write('assets/real.png', pngBytes());
    await workspace.symlink('link.png', target);
    const result = await tool().call({ path: 'link.png' });
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${target}">` },
      { type: 'image_url', url: dataUrl('image/png', pngBytes()) },
      { type: 'text', text: '</image>' },
    ]);
  });

  it('HTML-escapes the path in the tag but not in the message', async ({ workspace, tool }) => {
    const file = await workspace.write(`say "hi" <now> & 'then'.png`, pngBytes());
    const result = await tool().call({ path: file });
    const escaped = file
      .replaceAll('&', '&amp;')
      .replaceAll('"', '&quot;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll("'", '&#x27;');
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${escaped}">` },
      { type: 'image_url', url: dataUrl('image/png', pngBytes()) },
      { type: 'text', text: '</image>' },
    ]);
    expect(escaped).toContain('say &quot;hi&quot; &lt;now&gt; &amp; &#x27;then&#x27;.png');
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/png, ${pngBytes().length} bytes, original size 1x1px). ${ADVICE}`,
    );
  });
});

describe('ReadMediaFile: videos', () => {
  it.for([
    ['MP4', 'clip.mp4', mp4Bytes(), 'video/mp4'],
    ['WebM', 'clip.webm', webmBytes(), 'video/webm'],
  ] as const)('loads a %s as a video_url data URL', async ([, name, bytes, mime], { workspace, tool }) => {
    const file = await workspace.write(name, bytes);
    const result = await tool(['video_in']).call({ path: name });
    expect(result).toEqual({
      isError: false,
      output: [
        { type: 'text', text: `<video path="${file}">` },
        { type: 'video_url', url: dataUrl(mime, bytes) },
        { type: 'text', text: '</video>' },
      ],
      message: `Loaded video file \`${file}\` (${mime}, ${bytes.length} bytes). ${ADVICE}`,
      brief: '',
      display: [],
      extras: { kind: 'video', mime, size: bytes.length },
    });
  });

  it('recognises an extensionless video by its content', async ({ workspace, tool }) => {
    const file = await workspace.write('recording', webmBytes());
    const result = await tool(['video_in']).call({ path: file });
    expect(result.output).toEqual([
      { type: 'text', text: `<video path="${file}">` },
      { type: 'video_url', url: dataUrl('video/webm', webmBytes()) },
      { type: 'text', text: '</video>' },
    ]);
  });

  it('hands videos to the upload hook and uses the URL it returns', async ({ workspace, tool }) => {
    const uploads: { bytes: number[]; mime: string }[] = [];
    const uploadVideo = async (bytes: Uint8Array, mime: string) => {
      uploads.push({ bytes: [...bytes], mime });
      return 'https://files.example/v/42';
    };
    const file = await workspace.write('clip.mp4', mp4Bytes());
    const result = await tool(['image_in', 'video_in'], { uploadVideo }).call({ path: file });
    expect(uploads).toEqual([{ bytes: [...mp4Bytes()], mime: 'video/mp4' }]);
    expect(result.output).toEqual([
      { type: 'text', text: `<video path="${file}">` },
      { type: 'video_url', url: 'https://files.example/v/42' },
      { type: 'text', text: '</video>' },
    ]);
    expect(result.message).toBe(
      `Loaded video file \`${file}\` (video/mp4, ${mp4Bytes().length} bytes). ${ADVICE}`,
    );
  });

  it('still inlines images when an upload hook is set', async ({ workspace, tool }) => {
    let calls = 0;
    const uploadVideo = async () => {
      calls++;
      return 'https://files.example/never';
    };
    const file = await workspace.write('pic.png', pngBytes());
    const result = await tool(['image_in', 'video_in'], { uploadVideo }).call({ path: file });
    expect(calls).toBe(0);
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${file}">` },
      { type: 'image_url', url: dataUrl('image/png', pngBytes()) },
      { type: 'text', text: '</image>' },
    ]);
  });

  it('turns a failing upload into the generic error result', async ({ workspace, tool }) => {
    const uploadVideo = async (): Promise<string> => {
      throw new Error('upload service unavailable');
    };
    await workspace.write('clip.mp4', mp4Bytes());
    const result = await tool(['video_in'], { uploadVideo }).call({ path: 'clip.mp4' });
    expect(result).toMatchObject({
      isError: true,
      message: 'Failed to read clip.mp4. Error: upload service unavailable',
      brief: 'Failed to read file',
    });
  });
});

describe('ReadMediaFile: upload hook results', () => {
  it('refuses an empty URL from the upload hook', async ({ workspace, tool }) => {
    await workspace.write('clip.webm', webmBytes());
    const result = await tool(['video_in'], { uploadVideo: async () => '' }).call({ path: 'clip.webm' });
    expect(result).toMatchObject({
      isError: true,
      message: 'Failed to read clip.webm. Error: the uploadVideo hook returned no URL',
      brief: 'Failed to read file',
    });
  });
});

describe('ReadMediaFile: capabilities', () => {
  it('refuses a video when the model only takes images', async ({ workspace, tool }) => {
    await workspace.write('clip.mp4', mp4Bytes());
    const result = await tool(['image_in']).call({ path: 'clip.mp4' });
    expect(result).toEqual({
      isError: true,
      output: '',
      message:
        'The current model does not support video input. Tell the user to use a model with video input capability.',
      brief: 'Unsupported media type',
      display: [{ type: 'brief', text: 'Unsupported media type' }],
    });
  });

  it('refuses an image when the model only takes videos', async ({ workspace, tool }) => {
    await workspace.write('pic.png', pngBytes());
    const result = await tool(['video_in']).call({ path: 'pic.png' });
    expect(result.isError).toBe(true);
    expect(result.message).toBe(
      'The current model does not support image input. Tell the user to use a model with image input capability.',
    );
    expect(result.brief).toBe('Unsupported media type');
  });

  it('cannot be created without image_in or video_in', ({ workspace }) => {
    const runtime = workspace.runtime();
    const message =
      "ReadMediaFile needs a model with image or video input: pass capabilities ['image_in'] and/or ['video_in'] " +
      '(new ReadMediaFile(runtime, { capabilities })), and offer the tool only when ' +
      'isReadMediaFileAvailable({ capabilities }) is true.';
    expect(() => new ReadMediaFile(runtime)).toThrowError(message);
    expect(() => new ReadMediaFile(runtime, { capabilities: [] })).toThrowError(message);
  });

  it('refuses options of the wrong kind', ({ workspace }) => {
    const runtime = workspace.runtime();
    const capabilities = ['image_in', 'audio_in'] as unknown as Capability[];
    expect(() => new ReadMediaFile(runtime, { capabilities })).toThrowError(
      `ReadMediaFile: capabilities must hold only 'image_in' and 'video_in', got "audio_in".`,
    );
    const uploadVideo = 'https://upload' as unknown as ReadMediaFileOptions['uploadVideo'];
    expect(() => new ReadMediaFile(runtime, { capabilities: ['video_in'], uploadVideo })).toThrowError(
      'ReadMediaFile: uploadVideo must be a function, got string.',
    );
  });
});

describe('ReadMediaFile: size limits', () => {
  it('refuses an empty media file, naming the real path', async ({ workspace, tool }) => {
    const file = await workspace.write('blank.png', '');
    const result = await tool().call({ path: 'blank.png' });
    expect(result).toMatchObject({ isError: true, message: `\`${file}\` is empty.`, brief: 'Empty file' });
  });

  it('refuses a file over 100 MiB without reading it (a sparse file)', async ({ workspace, tool }) => {
    const file = await workspace.write('huge.png', pngBytes());
    await workspace.truncate(file, MAX_MEDIA_BYTES + 1);
    const result = await tool().call({ path: 'huge.png' });
    expect(result).toMatchObject({
      isError: true,
      message: `\`${file}\` is 104857601 bytes, which exceeds the max 100MB bytes for media files.`,
      brief: 'File too large',
    });
  });

  it('is 100 MiB exactly', () => {
    expect(MAX_MEDIA_BYTES).toBe(104_857_600);
  });
});

describe('ReadMediaFile: not media', () => {
  const textError = (input: string) => ({
    isError: true,
    message: `\`${input}\` is a text file. Use ReadFile to read text files.`,
    brief: 'Unsupported file type',
  });

  it('sends text files to ReadFile', async ({ workspace, tool }) => {
    await workspace.write('notes.txt', 'hello\n');
    expect(await tool().call({ path: 'notes.txt' })).toMatchObject(textError('notes.txt'));
  });

  it('treats text that starts like BMP, GIF or FLV magic as text', async ({ workspace, tool }) => {
    await workspace.write('cars', 'BMW and Audi are car makers.\nThis is plain text.\n');
    await workspace.write('formats', 'GIF89a is an image format, GIF87a is older.\n');
    await workspace.write('video-notes', 'FLV\u0001 looks like a header but this is a note.\n');
    for (const name of ['cars', 'formats', 'video-notes']) {
      expect(await tool().call({ path: name })).toMatchObject(textError(name));
    }
  });

  it('treats a .svg as text', async ({ workspace, tool }) => {
    await workspace.write('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n');
    expect(await tool().call({ path: 'logo.svg' })).toMatchObject(textError('logo.svg'));
  });

  it('calls unknown binary data not readable', async ({ workspace, tool }) => {
    await workspace.write('data.bin', Uint8Array.from([0x00, 0x13, 0x37, 0x00, 0xde, 0xad, 0xbe, 0xef]));
    const result = await tool().call({ path: 'data.bin' });
    expect(result).toMatchObject({
      isError: true,
      message:
        '`data.bin` seems not readable as an image or video file. You may need to read it with proper shell commands, ' +
        'Python tools or MCP tools if available. If you read/operate it with Python, you MUST ensure that any ' +
        'third-party packages are installed in a virtual environment (venv).',
      brief: 'File not readable',
    });
  });
});

describe('ReadMediaFile: what counts as media', () => {
  it('treats a .png that holds text (a Git LFS pointer) as text', async ({ workspace, tool }) => {
    const pointer =
      'version https://git-lfs.github.com/spec/v1\n' +
      'oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    await workspace.write('logo.png', pointer);
    await workspace.write('banner.jpg', 'not really a JPEG\n');
    for (const name of ['logo.png', 'banner.jpg']) {
      expect(await tool().call({ path: name })).toMatchObject({
        isError: true,
        message: `\`${name}\` is a text file. Use ReadFile to read text files.`,
        brief: 'Unsupported file type',
      });
    }
  });

  it('reports the sniffed type of a .png that holds a JPEG', async ({ workspace, tool }) => {
    const bytes = jpegBytes(2, 3);
    const file = await workspace.write('photo.png', bytes);
    const result = await tool().call({ path: file });
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${file}">` },
      { type: 'image_url', url: dataUrl('image/jpeg', bytes) },
      { type: 'text', text: '</image>' },
    ]);
    expect(result.message).toBe(
      `Loaded image file \`${file}\` (image/jpeg, ${bytes.length} bytes, original size 2x3px). ${ADVICE}`,
    );
  });

  it('recognises an extensionless MP4', async ({ workspace, tool }) => {
    const file = await workspace.write('capture', mp4Bytes());
    const result = await tool(['video_in']).call({ path: file });
    expect(result.message).toBe(
      `Loaded video file \`${file}\` (video/mp4, ${mp4Bytes().length} bytes). ${ADVICE}`,
    );
  });

  it('calls an empty file without a media extension text', async ({ workspace, tool }) => {
    await workspace.write('nothing', '');
    expect(await tool().call({ path: 'nothing' })).toMatchObject({
      isError: true,
      message: '`nothing` is a text file. Use ReadFile to read text files.',
      brief: 'Unsupported file type',
    });
  });
});

describe('ReadMediaFile: check order', () => {
  it('checks deny rules before existence', async ({ tool }) => {
    const result = await tool(['image_in'], { deny: ['private/**'] }).call({ path: 'private/missing.png' });
    expect(result.brief).toBe('Access denied');
  });

  it('sends text to ReadFile before looking at capabilities', async ({ workspace, tool }) => {
    await workspace.write('notes.md', '# Notes\n');
    expect((await tool(['video_in']).call({ path: 'notes.md' })).brief).toBe('Unsupported file type');
  });

  it('checks the capability before emptiness and size', async ({ workspace, tool }) => {
    await workspace.write('empty.mp4', '');
    const huge = await workspace.write('huge.mp4', mp4Bytes());
    await workspace.truncate(huge, MAX_MEDIA_BYTES + 1);
    const imagesOnly = tool(['image_in']);
    expect((await imagesOnly.call({ path: 'empty.mp4' })).brief).toBe('Unsupported media type');
    expect((await imagesOnly.call({ path: 'huge.mp4' })).brief).toBe('Unsupported media type');
    const videos = tool(['video_in']);
    expect((await videos.call({ path: 'empty.mp4' })).brief).toBe('Empty file');
    expect((await videos.call({ path: 'huge.mp4' })).brief).toBe('File too large');
  });
});

describe('ReadMediaFile: paths', () => {
  it('rejects an empty path', async ({ tool }) => {
    expect(await tool().call({ path: '' })).toMatchObject({
      isError: true,
      message: 'File path cannot be empty.',
      brief: 'Empty file path',
    });
  });

  it('rejects a path with a NUL byte', async ({ tool }) => {
    expect(await tool().call({ path: 'a\u0000.png' })).toMatchObject({
      isError: true,
      message: '`"a\\u0000.png"` is not a valid path.',
      brief: 'Invalid path',
    });
  });

  it('asks for an absolute path outside the working directory', async ({ tool }) => {
    expect(await tool().call({ path: '../elsewhere.png' })).toMatchObject({
      isError: true,
      message:
        '`../elsewhere.png` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      brief: 'Invalid path',
    });
  });

  it('applies the deny rules before looking at the file', async ({ workspace, tool }) => {
    await workspace.write('secret/pic.png', pngBytes());
    const result = await tool(['image_in'], { deny: ['secret/**'] }).call({ path: 'secret/pic.png' });
    expect(result).toMatchObject({
      isError: true,
      message: '`secret/pic.png` is denied by the workspace policy.',
      brief: 'Access denied',
    });
  });

  it('rejects a UNC path', async ({ tool }) => {
    expect(await tool().call({ path: '//server/share/pic.png' })).toMatchObject({
      isError: true,
      message: '`//server/share/pic.png` is not a valid path.',
      brief: 'Invalid path',
    });
  });

  it('reads an absolute path outside the workspace unless the runtime denies outside paths', async ({
    workspace,
    tool,
  }) => {
    const file = await workspace.write(workspace.outside('pic.gif'), gifBytes());
    expect((await tool().call({ path: file })).message).toBe(
      `Loaded image file \`${file}\` (image/gif, ${gifBytes().length} bytes, original size 1x1px). ${ADVICE}`,
    );
    expect(await tool(['image_in'], { outside: 'deny' }).call({ path: file })).toMatchObject({
      isError: true,
      message: `\`${file}\` is outside the workspace.`,
      brief: 'Outside workspace',
    });
  });

  it('reports a missing file and suggests similar names', async ({ workspace, tool }) => {
    await workspace.write('diagram.png', pngBytes());
    expect(await tool().call({ path: 'diagarm.png' })).toMatchObject({
      isError: true,
      message: '`diagarm.png` does not exist. Did you mean: diagram.png?',
      brief: 'File not found',
    });
    expect(await tool().call({ path: 'nothing-like-it.webm' })).toMatchObject({
      isError: true,
      message: '`nothing-like-it.webm` does not exist.',
      brief: 'File not found',
    });
  });

  it('refuses a directory, given with a trailing slash or not', async ({ workspace, tool }) => {
    await workspace.mkdir('album.png');
    for (const input of ['album.png', 'album.png/']) {
      expect(await tool().call({ path: input })).toMatchObject({
        isError: true,
        message: `\`${input}\` is not a file.`,
        brief: 'Invalid path',
      });
    }
  });
});

describe('ReadMediaFile: schema and description', () => {
  it('validates its arguments', async ({ tool }) => {
    expect(await tool().call({})).toMatchObject({
      isError: true,
      message: 'Error validating JSON arguments: path: is required',
      brief: 'Invalid arguments',
    });
  });

  it('exposes the JSON schema of path, region, full_resolution and pages', ({ tool }) => {
    const media = tool();
    expect(media.name).toBe('ReadMediaFile');
    expect(media.parameters).toEqual({
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description:
            'The path of the image, video or PDF file to read: absolute, or relative to the working directory. ' +
            'Files outside the working directory need an absolute path.',
        },
        region: {
          description:
            'Images only: the rectangle to read, in pixels of the original (upright) image, cropped before the ' +
            'image is fitted to the size limits. Use it to read small text or detail in a large image.',
          type: 'object',
          properties: {
            x: { type: 'integer', minimum: 0, description: 'Left edge, in pixels of the original image.' },
            y: { type: 'integer', minimum: 0, description: 'Top edge, in pixels of the original image.' },
            width: { type: 'integer', minimum: 1, description: 'Width in pixels.' },
            height: { type: 'integer', minimum: 1, description: 'Height in pixels.' },
          },
          required: ['x', 'y', 'width', 'height'],
        },
        full_resolution: {
          description:
            'Images only: send the original pixels, not scaled to the long-edge limit, as long as the image fits ' +
            'the byte budget.',
          type: 'boolean',
        },
        pages: {
          description:
            'PDFs only: the pages to read, 1-based: "7", "3-12" or "21-" (at most 20 per call). Default: the first 20.',
          type: 'string',
          pattern: expect.any(String),
        },
      },
      required: ['path'],
    });
  });

  it('states which media the current model supports', ({ tool }) => {
    const both = tool(['image_in', 'video_in']).description;
    const images = tool(['image_in']).description;
    const videos = tool(['video_in']).description;
    expect(both).toContain(
      'The current model supports image and video input: you can read both images and videos.',
    );
    expect(images).toContain(
      'The current model supports image input only: you can read images, but not videos.',
    );
    expect(videos).toContain(
      'The current model supports video input only: you can read videos, but not images.',
    );
    expect(both.split('\n')[0]).toBe(
      'Read an image or video file or a PDF from the local file system so that you can see it.',
    );
    expect(images.split('\n')[0]).toBe(
      'Read an image file or a PDF from the local file system so that you can see it.',
    );
    expect(videos.split('\n')[0]).toBe(
      'Read a video file or a PDF from the local file system so that you can see it.',
    );
    expect(images).toContain(
      'Formats: images in PNG, JPEG, GIF, BMP, TIFF, WebP, ICO, HEIC/HEIF and AVIF; PDF documents.',
    );
    expect(videos).toContain(
      'Formats: videos in MP4, MKV, AVI, MOV, WMV, WebM, M4V, FLV, 3GP and 3G2; PDF documents.',
    );
    // Only a model that sees images is told about fitting, region and full_resolution, and gets scans as images.
    expect(images).toContain(
      '- An image larger than 2000px on its long edge, or too large in bytes, is sent as',
    );
    expect(images).toContain('A page without a text layer (a scan) is sent as an image.');
    expect(videos).not.toContain('region');
    expect(videos).toContain('A page without a text layer (a scan) is named, as you cannot see images.');
    expect(tool(['image_in'], {}, { maxImageEdge: 1568 }).description).toContain(
      '- An image larger than 1568px on its long edge',
    );
    for (const text of [both, images, videos]) {
      expect(text).toContain('at most 100 MB');
      expect(text).not.toContain('${');
    }
  });

  // The image tips and the PDF tip are tips of their own: they were indented under the size limit's bullet (a nested
  // list in Markdown), so a video model read how PDFs are read as a detail of the 100 MB limit.
  it('lists every tip at the top level of its list', ({ tool }) => {
    for (const capabilities of [['image_in', 'video_in'], ['image_in'], ['video_in']] as const) {
      const lines = tool([...capabilities]).description.split('\n');
      expect(
        lines.filter((line) => /^\s+[-*] /.test(line)),
        capabilities.join(),
      ).toEqual([]);
      expect(lines.filter((line) => line.startsWith('- PDFs are read by page:'))).toHaveLength(1);
    }
    const images = tool(['image_in']).description.split('\n');
    expect(
      images.filter(
        (line) => line.startsWith('- An image larger than') || line.startsWith('- To read small'),
      ),
    ).toHaveLength(2);
  });
});
