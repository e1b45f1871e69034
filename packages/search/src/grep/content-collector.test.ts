import fc from 'fast-check';
import type { TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { ContentCollector } from './content-collector.js';
import { ResultPathFilter } from './result-path-filter.js';
import { capOutput } from './shape-output.js';

let tree: TempWorkspace;

beforeAll(async () => {
  tree = await createSearchTree({ 'a.txt': '', 'b.txt': '', '.env': '' });
});

afterAll(async () => {
  await tree.cleanup();
});

/** A collector fed `chunks`, with the filter's verdicts settled, as Grep has it once ripgrep is done. */
async function collect(chunks: readonly Buffer[]): Promise<ContentCollector> {
  const collector = new ContentCollector(new ResultPathFilter(tree.runtime(), tree.workDir));
  for (const chunk of chunks) collector.write(chunk);
  await collector.settle();
  return collector;
}

/** The lines of a page, as text. */
async function page(
  collector: ContentCollector,
  withLineNumbers: boolean,
  gaps: boolean,
  start: number,
  count: number,
) {
  const shown: string[] = [];
  for await (const line of collector.lines(withLineNumbers, gaps).range(start, count)) {
    shown.push(typeof line === 'string' ? line : line.text);
  }
  return shown;
}

function allLines(collector: ContentCollector, withLineNumbers = true, gaps = false): Promise<string[]> {
  return page(collector, withLineNumbers, gaps, 0, collector.lines(withLineNumbers, gaps).total);
}

/** ripgrep's content output: interleaved files, a gap, CRLF line ends, a sensitive file, a cut last record. */
const OUTPUT = Buffer.from(
  'b.txt\x003:1:10:bé\r\n' +
    'a.txt\x001:1:0:one\n' +
    'a.txt\x002-4-ctx\n' +
    '--\r\n' +
    'a.txt\x009:1:30:nine\n' +
    '.env\x001:1:0:TOKEN=1\n' +
    'b.txt\x004-20-after\n' +
    'a.txt\x0010:1:40:ten\n' +
    'not a record\n' +
    'a.txt\x0011:1:50:unfini',
);

describe('ContentCollector', () => {
  it('gathers each file into one block in path order, with gaps, and drops refused files and a cut record', async () => {
    const collector = await collect([OUTPUT]);
    expect(collector.kept).toBe(2);
    expect(await allLines(collector)).toEqual([
      'a.txt:1:one',
      'a.txt-2-ctx',
      '--',
      'a.txt:9:nine',
      '--',
      'a.txt:10:ten',
      'b.txt:3:bé',
      '--',
      'b.txt-4-after',
    ]);
    expect(await allLines(collector, false, true)).toEqual([
      'a.txt:one',
      'a.txt-ctx',
      '--',
      'a.txt:nine',
      '--',
      'a.txt:ten',
      '--',
      'b.txt:bé',
      '--',
      'b.txt-after',
    ]);
  });

  it('leaves out a printed line without its numbers, and counts only the records', async () => {
    const collector = await collect([
      Buffer.from(
        'a.txt\x00binary file matches (found "\\0" byte around offset 7)\n' +
          'a.txt\x001:1:0:one\n' +
          'b.txt\x007:x:0:no column\n' +
          'b.txt\x007-0:not context\n' +
          'b.txt\x00:1:0:no line\n',
      ),
    ]);
    expect(collector.kept).toBe(1);
    expect(await allLines(collector)).toEqual(['a.txt:1:one']);
  });

  it('takes a record whose file name starts with dashes for a record, not a gap', async () => {
    const collector = await collect([
      Buffer.from('--\x001:1:0:dashes\n--\n--\x005:1:9:again\n-a.txt\x002-4-ctx\r\n--\r\n'),
    ]);
    expect(collector.kept).toBe(2);
    expect(await allLines(collector)).toEqual(['--:1:dashes', '--', '--:5:again', '-a.txt-2-ctx']);
  });

  it('reads the same lines however the output is cut into chunks, even inside a character', async () => {
    const whole = await allLines(await collect([OUTPUT]), true, true);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: OUTPUT.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...[...cuts].sort((a, b) => a - b), OUTPUT.length];
          const chunks = points.slice(1).map((end, index) => OUTPUT.subarray(points[index], end));
          expect(await allLines(await collect(chunks), true, true)).toEqual(whole);
        },
      ),
    );
  });

  it('makes only the lines of the page asked for', async () => {
    const collector = await collect([OUTPUT]);
    expect(collector.lines(true, true).total).toBe(10);
    expect(await page(collector, true, true, 5, 3)).toEqual(['a.txt:10:ten', '--', 'b.txt:3:bé']);
    expect(await page(collector, true, true, 9, 5)).toEqual(['b.txt-4-after']);
    expect(await page(collector, true, true, 12, 5)).toEqual([]);
  });

  it('shows a line of megabytes, streamed in small chunks, exactly as the whole line would be cut', async () => {
    const long = `a.txt\x007:1:0:${'x'.repeat(3_000_000)}\r\nb.txt\x001:1:3000002:after\n`;
    const bytes = Buffer.from(long);
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 65_536)
      chunks.push(bytes.subarray(start, start + 65_536));
    const lines = await allLines(await collect(chunks));
    expect(lines).toEqual([expect.stringMatching(/^a\.txt:7:x+$/), 'b.txt:1:after']);
    const expected = await capOutput([`a.txt:7:${'x'.repeat(3_000_000)}`, 'b.txt:1:after']);
    expect(await capOutput(lines)).toEqual(expected);
    expect(expected.truncated).toBe(true);
  });
});
