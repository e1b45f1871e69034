import { describe, expect, it } from 'vitest';
import { toolError, toolOk, toolRejected } from './tool-result.js';
import { EMPTY_RESULT_TEXT, modelText, toModelContent } from './model-content.js';

describe('toModelContent', () => {
  it('puts the message first, then the output, and never brief, display or extras', () => {
    const result = toolOk({
      output: '1\thello\n',
      message: '1 line read from file starting from line 1. End of file reached.',
      brief: 'Read',
      display: [
        {
          type: 'diff',
          path: '/w/a',
          oldText: 'SECRET-OLD',
          newText: 'x',
          oldStart: 1,
          newStart: 1,
          isSummary: false,
        },
      ],
      extras: { hidden: 'EXTRA' },
    });
    const content = toModelContent(result);
    expect(content).toEqual({
      isError: false,
      parts: [
        { type: 'text', text: '1 line read from file starting from line 1. End of file reached.' },
        { type: 'text', text: '1\thello\n' },
      ],
    });
    expect(JSON.stringify(content)).not.toMatch(/SECRET-OLD|EXTRA|"Read"/);
  });

  it('marks a failure in the text too, for APIs that have no error flag', () => {
    const content = toModelContent(toolError({ message: '`a.ts` does not exist.', brief: 'File not found' }));
    expect(content).toEqual({
      isError: true,
      parts: [{ type: 'text', text: 'ERROR: `a.ts` does not exist.' }],
    });
    expect(modelText(toModelContent(toolRejected('use tabs')))).toBe(
      'ERROR: The tool call is rejected by the user. User feedback: use tabs',
    );
  });

  it('keeps the output of a failed call after its message', () => {
    const content = toModelContent(
      toolError({ message: 'Cut short.', brief: 'Grep failed', output: 'a.ts:1:x' }),
    );
    expect(modelText(content)).toBe('ERROR: Cut short.\na.ts:1:x');
  });

  it('turns data URLs into base64 media parts and other URLs into media-url parts, in order', () => {
    const result = toolOk({
      message: 'Loaded.',
      output: [
        { type: 'text', text: '<image path="/w/a.png">' },
        { type: 'image_url', url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'text', text: '</image>' },
        { type: 'text', text: '' },
        { type: 'image_url', url: 'data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E' },
        { type: 'video_url', url: 'https://cdn.example/v/clip.mp4' },
        { type: 'image_url', url: 'https://cdn.example/a' },
      ],
    });
    expect(toModelContent(result).parts).toEqual([
      { type: 'text', text: 'Loaded.' },
      { type: 'text', text: '<image path="/w/a.png">' },
      { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'text', text: '</image>' },
      { type: 'media', mediaType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') },
      { type: 'media-url', url: 'https://cdn.example/v/clip.mp4', mediaType: 'video/*' },
      { type: 'media-url', url: 'https://cdn.example/a', mediaType: 'image/*' },
    ]);
    expect(modelText(toModelContent(result))).toBe('Loaded.\n<image path="/w/a.png">\n</image>');
  });

  it('gives an empty result a fixed text, so no API is sent empty content', () => {
    expect(toModelContent(toolOk({ brief: 'Done' }))).toEqual({
      isError: false,
      parts: [{ type: 'text', text: EMPTY_RESULT_TEXT }],
    });
    expect(EMPTY_RESULT_TEXT).toBe('(no output)');
    expect(toModelContent(toolOk({ output: [] })).parts).toEqual([{ type: 'text', text: '(no output)' }]);
  });
});
