import { describe, expect, it } from 'vitest';
import { escapeHtmlAttribute, mediaParts, toDataUrl } from './media-parts.js';

describe('escapeHtmlAttribute', () => {
  it('escapes the five characters that could break out of an attribute', () => {
    expect(escapeHtmlAttribute(`/a/"x" <y> & 'z'.png`)).toBe(
      '/a/&quot;x&quot; &lt;y&gt; &amp; &#x27;z&#x27;.png',
    );
  });

  it('escapes an ampersand once, even when it already looks like an entity', () => {
    expect(escapeHtmlAttribute('/a/&amp;.png')).toBe('/a/&amp;amp;.png');
  });

  it('leaves other text, including non-ASCII, as is', () => {
    expect(escapeHtmlAttribute('/tmp/照片 1.png')).toBe('/tmp/照片 1.png');
  });
});

describe('mediaParts', () => {
  it('wraps an image URL in image tags', () => {
    expect(mediaParts('image', '/w/<a>.png', 'data:image/png;base64,AA==')).toEqual([
      { type: 'text', text: '<image path="/w/&lt;a&gt;.png">' },
      { type: 'image_url', url: 'data:image/png;base64,AA==' },
      { type: 'text', text: '</image>' },
    ]);
  });

  it('wraps a video URL in video tags', () => {
    expect(mediaParts('video', '/w/v.mp4', 'https://cdn.example/v.mp4')).toEqual([
      { type: 'text', text: '<video path="/w/v.mp4">' },
      { type: 'video_url', url: 'https://cdn.example/v.mp4' },
      { type: 'text', text: '</video>' },
    ]);
  });
});

describe('toDataUrl', () => {
  it('encodes exactly the viewed bytes of a subarray', () => {
    const backing = Uint8Array.from([9, 1, 2, 3, 9]);
    expect(toDataUrl(backing.subarray(1, 4), 'image/gif')).toBe('data:image/gif;base64,AQID');
  });
});
