import { describe, expect, it } from 'vitest';
import {
  acceptsMediaTypes,
  keepAcceptedMedia,
  mediaLeftOutText,
  type ModelMediaPart,
} from './accepted-media.js';
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

describe('acceptsMediaTypes', () => {
  const png: ModelMediaPart = { type: 'media', mediaType: 'image/png', data: 'AAAA' };
  const bmp: ModelMediaPart = { type: 'media', mediaType: 'image/bmp', data: 'BBBB' };
  const mp4: ModelMediaPart = { type: 'media', mediaType: 'video/mp4', data: 'CCCC' };
  const imageUrl: ModelMediaPart = {
    type: 'media-url',
    url: 'https://example.invalid/a',
    mediaType: 'image/*',
  };
  const videoUrl: ModelMediaPart = {
    type: 'media-url',
    url: 'https://example.invalid/v',
    mediaType: 'video/*',
  };
  const untyped: ModelMediaPart = { type: 'media-url', url: 'https://example.invalid/u' };
  const all = [png, bmp, mp4, imageUrl, videoUrl, untyped];
  const accepted = (types: string[]) => all.filter(acceptsMediaTypes(types));

  it('takes the types listed, in any case, and media by URL of a kind it takes some type of', () => {
    expect(accepted(['IMAGE/PNG', 'image/jpeg'])).toEqual([png, imageUrl]);
    expect(accepted(['application/pdf'])).toEqual([]);
  });

  it('takes no part whose own type is not in lower case: the APIs read it as sent', () => {
    const upper: ModelMediaPart = { type: 'media', mediaType: 'image/PNG', data: 'AAAA' };
    expect(acceptsMediaTypes(['image/png'])(upper)).toBe(false);
  });

  it('takes every type of a kind with type/*, and everything with */*', () => {
    expect(accepted(['image/png', 'video/*'])).toEqual([png, mp4, imageUrl, videoUrl]);
    expect(accepted(['*/*'])).toEqual(all);
  });

  it('takes media of unknown type only with */*', () => {
    expect(accepted(['image/*', 'video/*'])).toEqual([png, bmp, mp4, imageUrl, videoUrl]);
  });

  it("is the accepts of keepAcceptedMedia: a BMP in a tool's output is left out in place", () => {
    const content: ModelContent = { isError: false, parts: [{ type: 'text', text: 'Loaded.' }, bmp] };
    expect(keepAcceptedMedia(content, acceptsMediaTypes(['image/png'])).parts).toEqual([
      { type: 'text', text: 'Loaded.' },
      { type: 'text', text: "[image/bmp content left out: this model's API does not take it]" },
    ]);
  });
});
