import { describe, expect, it } from 'vitest';
import { keepAcceptedMedia, mediaLeftOutText } from './accepted-media.js';
import type { ModelContent } from './model-content.js';

describe('keepAcceptedMedia', () => {
  const content: ModelContent = {
    isError: false,
    parts: [
      { type: 'text', text: 'Loaded.' },
      { type: 'media', mediaType: 'image/png', data: 'AAAA' },
      { type: 'media', mediaType: 'image/bmp', data: 'BBBB' },
      { type: 'media-url', url: 'https://example.invalid/v.mp4', mediaType: 'video/*' },
    ],
  };

  it('keeps the parts the API takes and says which were left out, in place', () => {
    const kept = keepAcceptedMedia(content, (part) => part.mediaType === 'image/png');
    expect(kept).toEqual({
      isError: false,
      parts: [
        { type: 'text', text: 'Loaded.' },
        { type: 'media', mediaType: 'image/png', data: 'AAAA' },
        { type: 'text', text: "[image/bmp content left out: this model's API does not take it]" },
        { type: 'text', text: "[video/* content left out: this model's API does not take it]" },
      ],
    });
  });

  it('keeps isError and leaves the content it was given unchanged', () => {
    const failed: ModelContent = { ...content, isError: true };
    const before = structuredClone(failed);
    expect(keepAcceptedMedia(failed, () => false).isError).toBe(true);
    expect(failed).toEqual(before);
  });

  it('names media of unknown type as media', () => {
    expect(mediaLeftOutText(undefined)).toBe("[media content left out: this model's API does not take it]");
  });
});
