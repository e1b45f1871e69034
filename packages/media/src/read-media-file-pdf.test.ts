import fs from 'node:fs/promises';
import type { ContentPart } from '@kimi-tools/core';
import { backendHas, test, type TempWorkspace } from '@kimi-tools/test-kit';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { fixture } from './__fixtures__/fixture-path.js';
import type { Capability } from './availability.js';
import { ReadMediaFile } from './read-media-file.js';

/** The kit's test, with `tool`: a ReadMediaFile for a model that takes `capabilities` (images by default). */
const it = test.extend(
  'tool',
  ({ workspace }) =>
    (capabilities: Capability[] = ['image_in']) =>
      new ReadMediaFile(workspace.runtime(), { capabilities }),
);

async function copyFixture(workspace: TempWorkspace, name: string): Promise<string> {
  return workspace.write(name, await fs.readFile(fixture(name)));
}

function page(number: number): string {
  return (
    `--- Page ${number} ---\nQuarterly report, page ${number}\nRevenue grew in every region this quarter.\n` +
    `The marker for this page is MARK-${number}\n`
  );
}

// Rendering and text extraction are seconds of work, the same on every backend: on the local disk only.
describe.runIf(backendHas('slow'))('ReadMediaFile: PDFs', () => {
  it('reads the text of every page with its number, and says it reached the end', async ({
    workspace,
    tool,
  }) => {
    const file = await copyFixture(workspace, 'text.pdf');
    const { size } = await workspace.fs.stat(file);
    const result = await tool().call({ path: file });
    expect(result).toEqual({
      isError: false,
      output: [
        { type: 'text', text: `<pdf path="${file}" pages="1-3" total_pages="3">` },
        { type: 'text', text: page(1) },
        { type: 'text', text: page(2) },
        { type: 'text', text: page(3) },
        { type: 'text', text: '</pdf>' },
      ],
      message: `Read pages 1-3 of 3 of PDF \`${file}\` (${size} bytes). This is the end of the document.`,
      brief: '',
      display: [],
      extras: { kind: 'pdf', mime: 'application/pdf', size, pages: { first: 1, last: 3 }, totalPages: 3 },
    });
  });

  it('reads one page, and says how to read the next', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'text.pdf');
    const result = await tool().call({ path: file, pages: '2' });
    expect(result.output).toEqual([
      { type: 'text', text: `<pdf path="${file}" pages="2-2" total_pages="3">` },
      { type: 'text', text: page(2) },
      { type: 'text', text: '</pdf>' },
    ]);
    expect(result.message).toMatch(
      /^Read page 2 of 3 of PDF .* To read on, call again with pages "3" \(at most 20 pages per call\)\.$/,
    );
  });

  it('reads a 300-page PDF 20 pages at a time, with the total', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'pages-300.pdf');
    const { size } = await workspace.fs.stat(file);
    const first = await tool().call({ path: file });
    const parts = first.output as ContentPart[];
    expect(parts).toHaveLength(22);
    expect(parts[0]).toEqual({ type: 'text', text: `<pdf path="${file}" pages="1-20" total_pages="300">` });
    expect(parts[20]).toEqual({ type: 'text', text: '--- Page 20 ---\nThis is page 20.\n' });
    expect(first.message).toBe(
      `Read pages 1-20 of 300 of PDF \`${file}\` (${size} bytes). To read on, call again with pages "21-40" ` +
        '(at most 20 pages per call).',
    );
    // A range longer than 20 pages is cut to 20; one that runs past the end stops at the last page.
    const long = await tool().call({ path: file, pages: '100-200' });
    expect(long.message).toContain('Read pages 100-119 of 300');
    expect(long.message).toContain('call again with pages "120-139"');
    const tail = await tool().call({ path: file, pages: '295-' });
    expect((tail.output as ContentPart[]).at(-2)).toEqual({
      type: 'text',
      text: '--- Page 300 ---\nThis is page 300.\n',
    });
    expect(tail.message).toBe(
      `Read pages 295-300 of 300 of PDF \`${file}\` (${size} bytes). This is the end of the document.`,
    );
  });

  it('refuses pages past the end, and malformed pages', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'pages-300.pdf');
    expect(await tool().call({ path: file, pages: '301-310' })).toMatchObject({
      isError: true,
      message: 'pages "301-310" starts after the last page: the document has 300 pages.',
      brief: 'Invalid arguments',
    });
    // `pages` may hold white space, a line feed too, and any number of digits: echoed raw, a line feed split the
    // message, and a megabyte of digits came back whole.
    const pastTheEnd = (shown: string) =>
      `pages "${shown}" starts after the last page: the document has 300 pages.`;
    expect((await tool().call({ path: file, pages: '301\n-310' })).message).toBe(pastTheEnd('301\u240a-310'));
    expect((await tool().call({ path: file, pages: '301\u000b-310' })).message).toBe(
      pastTheEnd('301\u240b-310'),
    );
    expect((await tool().call({ path: file, pages: '9'.repeat(1024 * 1024) })).message).toBe(
      pastTheEnd(`${'9'.repeat(100)}[...1048376 characters cut...]${'9'.repeat(100)}`),
    );
    for (const pages of ['0', '5-3', 'one', '1,2']) {
      expect(await tool().call({ path: file, pages })).toMatchObject({
        isError: true,
        brief: 'Invalid arguments',
      });
    }
    // Each problem once: a malformed value also failed the page-number check, and the message said the same thing
    // twice; a reversed range or a page 0 is told what is wrong with it.
    const form = 'pages must be a page ("7"), a range ("3-12") or a page and all after it ("21-")';
    for (const pages of ['one', '1,2', '1\n2']) {
      expect((await tool().call({ path: file, pages })).message, pages).toBe(
        `Error validating JSON arguments: pages: ${form}`,
      );
    }
    for (const pages of ['0', '5-3', '0-2']) {
      expect((await tool().call({ path: file, pages })).message, pages).toBe(
        'Error validating JSON arguments: pages: pages count from 1, and a range may not end before it starts ("3-12", not "12-3")',
      );
    }
  });

  it('stops before the page that would pass the text cap, and says where to go on', async ({
    workspace,
    tool,
  }) => {
    const file = await copyFixture(workspace, 'dense-text.pdf');
    const result = await tool().call({ path: file });
    const parts = result.output as ContentPart[];
    const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    expect(text.length).toBeLessThanOrEqual(100_000 + 2000);
    expect(parts[0]).toEqual({ type: 'text', text: `<pdf path="${file}" pages="1-14" total_pages="25">` });
    expect(result.message).toContain(
      'The output stops at 100000 characters of text. To read on, call again with pages "15-25" (at most 20 pages per call).',
    );
  });

  it('sends a scanned page without a text layer as an image', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'scanned.pdf');
    const { size } = await workspace.fs.stat(file);
    const result = await tool().call({ path: file });
    const parts = result.output as ContentPart[];
    expect(parts).toHaveLength(4);
    expect(parts[1]).toEqual({ type: 'text', text: '--- Page 1 (no text layer; as an image) ---' });
    const image = parts[2]!;
    if (image.type !== 'image_url') throw new Error('no image');
    expect(image.url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const meta = await sharp(Buffer.from(image.url.split(',')[1]!, 'base64')).metadata();
    // A US Letter page, its long edge rendered at 1600px.
    expect(meta).toMatchObject({ format: 'jpeg', width: 1237, height: 1600 });
    expect(result.message).toBe(
      `Read page 1 of 1 of PDF \`${file}\` (${size} bytes). No text layer on page 1: sent as an image. This is the ` +
        'end of the document.',
    );
  });

  it('keeps page images within the byte budget of one call', async ({ workspace }) => {
    const file = await copyFixture(workspace, 'scanned.pdf');
    const tool = new ReadMediaFile(workspace.runtime(), {
      capabilities: ['image_in'],
      maxImageBytes: 16_384,
    });
    const result = await tool.call({ path: file });
    expect((result.output as ContentPart[]).map((part) => part.type)).toEqual(['text', 'text', 'text']);
    expect(result.message).toContain(
      'No text layer on page 1, not sent as an image: it would take the images of this call past the byte budget; ' +
        'read fewer pages per call.',
    );
  });

  it('names a scanned page it cannot show to a model without image input', async ({ workspace, tool }) => {
    const file = await copyFixture(workspace, 'scanned.pdf');
    const result = await tool(['video_in']).call({ path: file });
    expect(result.output).toEqual([
      { type: 'text', text: `<pdf path="${file}" pages="1-1" total_pages="1">` },
      { type: 'text', text: '--- Page 1 (no text layer) ---' },
      { type: 'text', text: '</pdf>' },
    ]);
    expect(result.message).toContain(
      'No text layer on page 1, not sent as an image: the current model does not take images.',
    );
  });

  it('refuses an encrypted PDF and a damaged one with clear errors', async ({ workspace, tool }) => {
    const encrypted = await copyFixture(workspace, 'encrypted.pdf');
    expect(await tool().call({ path: encrypted })).toMatchObject({
      isError: true,
      output: '',
      message:
        `\`${encrypted}\` is an encrypted PDF that needs a password to open. Ask the user for a copy without the ` +
        'password (for example made with qpdf --decrypt).',
      brief: 'Encrypted PDF',
    });
    const truncated = await copyFixture(workspace, 'truncated.pdf');
    expect(await tool().call({ path: truncated })).toMatchObject({
      isError: true,
      message:
        `\`${truncated}\` is not a readable PDF (Invalid PDF structure.). The file is damaged or incomplete, for ` +
        'example cut short by a download; ask the user for an intact copy.',
      brief: 'File not readable',
    });
  });

  it('refuses image parameters for a PDF and pages for an image', async ({ workspace, tool }) => {
    const pdf = await copyFixture(workspace, 'text.pdf');
    expect(await tool().call({ path: pdf, region: { x: 0, y: 0, width: 1, height: 1 } })).toMatchObject({
      isError: true,
      message: `region applies only to images, and \`${pdf}\` is a PDF file.`,
      brief: 'Invalid arguments',
    });
    expect(await tool().call({ path: pdf, full_resolution: true })).toMatchObject({
      message: `full_resolution applies only to images, and \`${pdf}\` is a PDF file.`,
    });
    expect(await tool().call({ path: pdf, full_resolution: false })).toMatchObject({ isError: false });
    const photo = await copyFixture(workspace, 'photo-exif-rotated.jpg');
    expect(await tool().call({ path: photo, pages: '1' })).toMatchObject({
      isError: true,
      message: `pages applies only to PDF files, and \`${photo}\` is an image file.`,
      brief: 'Invalid arguments',
    });
  });
});
