import { describe, expect, it } from 'vitest';
import { isReadMediaFileAvailable, supportedMediaKinds } from './availability.js';

describe('isReadMediaFileAvailable', () => {
  it('needs image_in or video_in', () => {
    expect(isReadMediaFileAvailable({ capabilities: [] })).toBe(false);
    expect(isReadMediaFileAvailable({ capabilities: ['image_in'] })).toBe(true);
    expect(isReadMediaFileAvailable({ capabilities: ['video_in'] })).toBe(true);
    expect(isReadMediaFileAvailable({ capabilities: ['video_in', 'image_in'] })).toBe(true);
  });
});

describe('supportedMediaKinds', () => {
  it('lists images before videos, whatever the capability order', () => {
    expect(supportedMediaKinds({ capabilities: ['video_in', 'image_in'] })).toEqual(['image', 'video']);
    expect(supportedMediaKinds({ capabilities: ['video_in'] })).toEqual(['video']);
    expect(supportedMediaKinds({ capabilities: [] })).toEqual([]);
  });
});
