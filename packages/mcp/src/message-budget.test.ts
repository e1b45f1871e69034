import { toolOk } from '@kimi-tools/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMarker } from './errors.js';
import { fitText, jsonBytes, MAX_MESSAGE_BYTES } from './message-budget.js';
import { toCallToolResult } from './to-call-tool-result.js';

/** A character of each JSON size: plain, escaped, `\\u`-escaped, 2 and 3 UTF-8 bytes, a pair, a lone surrogate. */
const ONE_OF_EACH_SIZE = fc.constantFrom('a', '"', '\n', '\u001b', 'é', '€', '😀', '\ud800', '\udc00');

describe('fitText', () => {
  it('keeps a text that fits, and cuts one that does not to the budget, saying how much was cut', () => {
    expect(fitText('short', 100)).toBe('short');
    const cut = fitText('x'.repeat(1000), 200);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(200);
    const kept = cut.indexOf('\n');
    expect(cut).toBe('x'.repeat(kept) + cutMarker(1000 - kept));
  });

  it('counts JSON escapes and UTF-8 bytes, and never splits a surrogate pair', () => {
    const controls = fitText('\u001b'.repeat(1000), 300);
    expect(jsonBytes(controls)).toBeLessThanOrEqual(300);
    const emoji = fitText('😀'.repeat(1000), 301);
    expect(jsonBytes(emoji)).toBeLessThanOrEqual(301);
    expect(emoji.split('\n')[0]).toMatch(/^(😀)+$/u);
  });

  it('always fits the budget, and keeps a head of the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: ONE_OF_EACH_SIZE, maxLength: 400 }),
        fc.integer({ min: 120, max: 600 }),
        (text, budget) => {
          const fitted = fitText(text, budget);
          expect(jsonBytes(fitted)).toBeLessThanOrEqual(budget);
          if (fitted !== text) {
            const head = fitted.slice(0, fitted.lastIndexOf('\n[… '));
            expect(text.startsWith(head)).toBe(true);
            expect(fitted).toBe(head + cutMarker(text.length - head.length));
          }
        },
      ),
    );
  });
});

describe('toCallToolResult stays under one message', () => {
  it('cuts a huge output, and replaces an image that does not fit with a note', () => {
    const huge = toCallToolResult(toolOk({ output: 'y'.repeat(20_000_000), message: 'Read 1 line.' }));
    expect(jsonBytes(huge)).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(huge.content[0]).toEqual({ type: 'text', text: 'Read 1 line.' });
    expect((huge.content[1] as { text: string }).text).toMatch(
      /more characters cut: the text does not fit in one MCP message\]$/,
    );

    const base64 = 'A'.repeat(12_000_000);
    const image = toCallToolResult(
      toolOk({ output: [{ type: 'image_url', url: `data:image/png;base64,${base64}` }], message: '' }),
    );
    expect(jsonBytes(image)).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(image.content).toEqual([
      {
        type: 'text',
        text: 'The image (9000000 bytes, 12000000 in base64) was not sent: it does not fit in one MCP message (at most 8388608 bytes).',
      },
    ]);
  });

  it("says the size of an image it does not send as the image's bytes, its base64 padding not counted", () => {
    // 7,000,001 bytes fit in 8 MiB, their 9,333,336 base64 characters (one `=` of padding at the end) do not.
    const base64 = Buffer.alloc(7_000_001).toString('base64');
    const image = toCallToolResult(
      toolOk({ output: [{ type: 'image_url', url: `data:image/png;base64,${base64}` }], message: '' }),
    );
    expect(image.content).toEqual([
      {
        type: 'text',
        text: 'The image (7000001 bytes, 9333336 in base64) was not sent: it does not fit in one MCP message (at most 8388608 bytes).',
      },
    ]);
  });
});
