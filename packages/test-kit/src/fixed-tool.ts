import { toolError, toolOk, type ContentPart, type ToolReturnValue } from '@kimi-tools/core';

/** A host's own tool that answers every call with `result`, and records the arguments it got. */
export function fixedTool(name: string, result: ToolReturnValue) {
  const calls: unknown[] = [];
  return {
    name,
    description: `Answers as ${name}.`,
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'A path.' } } },
    calls,
    async call(args: unknown): Promise<ToolReturnValue> {
      calls.push(args);
      return result;
    },
  };
}

/** Media of every kind an API may or may not take (PNG and BMP bytes, a WebP by URL, an MP4), tags around the PNG. */
export const MIXED_MEDIA: ContentPart[] = [
  { type: 'text', text: '<image path="/w/a.png">' },
  { type: 'image_url', url: 'data:image/png;base64,UE5H' },
  { type: 'text', text: '</image>' },
  { type: 'image_url', url: 'data:image/bmp;base64,Qk0=' },
  { type: 'image_url', url: 'https://files.example.invalid/b.webp' },
  { type: 'video_url', url: 'data:video/mp4;base64,AAAA' },
];

export const mediaResult = toolOk({ message: 'Loaded.', output: MIXED_MEDIA });
export const textResult = toolOk({ message: 'Read 1 line.', output: 'one\n' });
export const errorResult = toolError({ message: '`x` does not exist.', brief: 'File not found' });
