import { toolError, toolOk } from '@kimi-tools/core';
import { EMPTY_RESULT_TEXT } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './to-call-tool-result.js';

describe('toCallToolResult', () => {
  it("sends core's model content: the message first, then the output; brief and display as structured content", () => {
    const result = toolOk({ output: '1\thello', message: '1 line read.', extras: { lines: 1 } });
    expect(toCallToolResult(result, { structuredContent: true })).toEqual({
      content: [
        { type: 'text', text: '1 line read.' },
        { type: 'text', text: '1\thello' },
      ],
      isError: false,
      structuredContent: { brief: '', display: [], extras: { lines: 1 } },
    });
  });

  it('maps an error to isError with its message and brief', () => {
    const result = toolError({ message: '`a` does not exist.', brief: 'File not found' });
    expect(toCallToolResult(result, { structuredContent: true })).toEqual({
      content: [{ type: 'text', text: 'ERROR: `a` does not exist.' }],
      isError: true,
      structuredContent: { brief: 'File not found', display: [{ type: 'brief', text: 'File not found' }] },
    });
  });

  it('maps image data URLs to image content and keeps the parts in order', () => {
    const result = toolOk({
      output: [
        { type: 'text', text: '<image path="/w/a.png">' },
        { type: 'image_url', url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'text', text: '</image>' },
      ],
    });
    expect(toCallToolResult(result).content).toEqual([
      { type: 'text', text: '<image path="/w/a.png">' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: '</image>' },
    ]);
  });

  it('maps a video data URL to an embedded resource named after the file in its tag', () => {
    const result = toolOk({
      output: [
        { type: 'text', text: '<video path="/w/my &amp; clip.mp4">' },
        { type: 'video_url', url: 'data:video/mp4;base64,AAAAIGZ0eXA=' },
        { type: 'text', text: '</video>' },
      ],
    });
    expect(toCallToolResult(result).content[1]).toEqual({
      type: 'resource',
      resource: { uri: 'file:///w/my%20&%20clip.mp4', mimeType: 'video/mp4', blob: 'AAAAIGZ0eXA=' },
    });
  });

  // The tag holds the path as shown (docs/paths.md#how-paths-are-shown): `"/w/a\tb.mp4"` made the URI of a file named
  // with the quotes and a backslash, relative to the server's directory.
  it('names the file of a tag holding a quoted path, read back from its shown form', () => {
    const result = toolOk({
      output: [
        { type: 'text', text: '<video path="&quot;/w/a\\tb.mp4&quot;">' },
        { type: 'video_url', url: 'data:video/mp4;base64,AAAAIGZ0eXA=' },
        { type: 'text', text: '</video>' },
      ],
    });
    expect(toCallToolResult(result).content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'file:///w/a%09b.mp4' },
    });
  });

  it('maps an untagged video data URL to an embedded resource with a placeholder URI', () => {
    const result = toolOk({ output: [{ type: 'video_url', url: 'data:video/webm;base64,GkXf' }] });
    expect(toCallToolResult(result).content).toEqual([
      { type: 'resource', resource: { uri: 'urn:kimi-tools:media:0', mimeType: 'video/webm', blob: 'GkXf' } },
    ]);
  });

  it('maps uploaded (non-data) URLs to resource links', () => {
    const result = toolOk({
      output: [
        { type: 'video_url', url: 'https://cdn.example/v/clip%201.mp4?sig=x' },
        { type: 'image_url', url: 'https://cdn.example/' },
      ],
    });
    expect(toCallToolResult(result).content).toEqual([
      { type: 'resource_link', uri: 'https://cdn.example/v/clip%201.mp4?sig=x', name: 'clip 1.mp4' },
      { type: 'resource_link', uri: 'https://cdn.example/', name: 'image' },
    ]);
  });

  it('re-encodes percent-encoded data URLs as base64', () => {
    const result = toolOk({
      output: [{ type: 'image_url', url: 'data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E' }],
    });
    expect(toCallToolResult(result).content).toEqual([
      { type: 'image', data: Buffer.from('<svg/>').toString('base64'), mimeType: 'image/svg+xml' },
    ]);
  });

  it('never sends an empty content list, and leaves structured content out unless asked', () => {
    expect(toCallToolResult(toolOk({ brief: 'Done' }))).toEqual({
      content: [{ type: 'text', text: EMPTY_RESULT_TEXT }],
      isError: false,
    });
  });
});
