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

async function collect(chunks: readonly Buffer[]): Promise<ContentCollector> {
  const collector = new ContentCollector(new ResultPathFilter(tree.runtime(), tree.workDir));
  for (const chunk of chunks) collector.write(chunk);
  await collector.settle();
  return collector;
}

function allLines(collector: ContentCollector, withLineNumbers = true, gaps = false): string[] {
  const lines = collector.lines(withLineNumbers, gaps);
  return [...lines.range(0, lines.total)];
}

/** ripgrep's content output: interleaved files, a gap, CRLF line ends, a sensitive file, a cut last record. */
const OUTPUT = Buffer.from(
  'b.txt\x003:bé\r\n' +
    'a.txt\x001:one\n' +
    'a.txt\x002-ctx\n' +
    '--\r\n' +
    'a.txt\x009:nine\n' +
    '.env\x001:TOKEN=1\n' +
    'b.txt\x004-after\n' +
    'a.txt\x0010:ten\n' +
    'not a record\n' +
    'a.txt\x0011:unfini',
);

describe('ContentCollector', () => {
  it('gathers each file into one block in path order, with gaps, and drops refused files and a cut record', async () => {
    const collector = await collect([OUTPUT]);
    expect(collector.kept).toBe(2);
    expect(allLines(collector)).toEqual([
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
    expect(allLines(collector, false, true)).toEqual([
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

  it('reads the same lines however the output is cut into chunks, even inside a character', async () => {
    const whole = allLines(await collect([OUTPUT]), true, true);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: OUTPUT.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...[...cuts].sort((a, b) => a - b), OUTPUT.length];
          const chunks = points.slice(1).map((end, index) => OUTPUT.subarray(points[index], end));
          expect(allLines(await collect(chunks), true, true)).toEqual(whole);
        },
      ),
    );
  });

  it('makes only the lines of the page asked for', async () => {
    const lines = (await collect([OUTPUT])).lines(true, true);
    expect(lines.total).toBe(10);
    expect([...lines.range(5, 3)]).toEqual(['a.txt:10:ten', '--', 'b.txt:3:bé']);
    expect([...lines.range(9, 5)]).toEqual(['b.txt-4-after']);
    expect([...lines.range(12, 5)]).toEqual([]);
  });

  it('shows a line of megabytes, streamed in small chunks, exactly as the whole line would be cut', async () => {
    const long = `a.txt\x007:${'x'.repeat(3_000_000)}\r\nb.txt\x001:after\n`;
    const bytes = Buffer.from(long);
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 65_536)
      chunks.push(bytes.subarray(start, start + 65_536));
    const lines = allLines(await collect(chunks));
    expect(lines).toEqual([expect.stringMatching(/^a\.txt:7:x+$/), 'b.txt:1:after']);
    const expected = capOutput([`a.txt:7:${'x'.repeat(3_000_000)}`, 'b.txt:1:after']);
    expect(capOutput(lines)).toEqual(expected);
    expect(expected.truncated).toBe(true);
  });
});
