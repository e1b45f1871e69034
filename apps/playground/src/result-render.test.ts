import { toolError, toolOk } from '@kimi-tools/core';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderResult } from './result-render.js';

const plain = pc.createColors(false);

describe('renderResult', () => {
  it('shows the status, brief and message, then the output trimmed to a few short lines', () => {
    const output = Array.from(
      { length: 15 },
      (_, i) => `${String(i + 1).padStart(6)}\tline ${'x'.repeat(i * 20)}`,
    )
      .join('\n')
      .concat('\n');
    const lines = renderResult(toolOk({ message: '15 lines read.', output }), plain, {
      maxLines: 3,
      maxLineChars: 30,
    });
    expect(lines).toEqual([
      '  ✓ ok 15 lines read.',
      '    │      1  line ',
      `    │      2  line ${'x'.repeat(17)}…`,
      `    │      3  line ${'x'.repeat(17)}…`,
      '    … 12 more lines of output',
    ]);
  });

  it('shows errors with their brief, and media parts as short placeholders', () => {
    expect(renderResult(toolError({ message: 'Nope.', brief: 'File not found' }), plain)).toEqual([
      '  ✗ error [File not found] Nope.',
    ]);
    const url = `data:image/png;base64,${'A'.repeat(100)}`;
    const lines = renderResult(
      toolOk({
        output: [
          { type: 'text', text: '<image path="/w/a.png">' },
          { type: 'image_url', url },
          { type: 'text', text: '</image>' },
        ],
      }),
      plain,
    );
    expect(lines).toEqual([
      '  ✓ ok',
      '    │ <image path="/w/a.png">',
      `    │ [image_url: ${url.slice(0, 48)}… (122 chars)]`,
      '    │ </image>',
    ]);
  });
});
