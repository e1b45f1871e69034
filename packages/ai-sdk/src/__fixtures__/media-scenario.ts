import { ReadMediaFile } from '@kimi-tools/media';
import { bmpBytes, mp4Bytes, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { aiSdkTools, type AiSdkToolsOptions } from '../ai-sdk-tools.js';
import type { ModelCall } from './model-apis.js';

/**
 * The session the media tests replay through a provider: the model reads a BMP and a video in one step and answers,
 * then the user asks something else, so the second turn's request carries the first turn's results again.
 */
export const mediaScenario = {
  files: { 'icon.bmp': bmpBytes(2, 2), 'clip.mp4': mp4Bytes() },
  calls: [
    ['call_icon', 'ReadMediaFile', { path: 'icon.bmp' }],
    ['call_clip', 'ReadMediaFile', { path: 'clip.mp4' }],
  ] satisfies ModelCall[],
  prompts: ['What are icon.bmp and clip.mp4?', 'Now say hello.'],
  answers: ['An icon, and a clip.', 'Hello.'],
} as const;

/** The clip's bytes in base64, as a provider carries them. */
export const clipBase64 = Buffer.from(mediaScenario.files['clip.mp4']).toString('base64');

/** What the model reads of the icon: ReadMediaFile's text parts, the BMP left out where it stood. */
export function iconLeftOutText(workspace: TempWorkspace): string {
  const path = workspace.at('icon.bmp');
  return [
    loadedMessage('image', path, 'image/bmp', mediaScenario.files['icon.bmp'].length, '2x2px'),
    `<image path="${path}">`,
    "[image/bmp content left out: this model's API does not take it]",
    '</image>',
  ].join('\n');
}

/** What the model reads of the clip: ReadMediaFile's text parts, with the video left out where it stood or not. */
export function clipText(workspace: TempWorkspace, { leftOut }: { leftOut: boolean }): string {
  const path = workspace.at('clip.mp4');
  return [
    loadedMessage('video', path, 'video/mp4', mediaScenario.files['clip.mp4'].length),
    `<video path="${path}">`,
    ...(leftOut ? ["[video/mp4 content left out: this model's API does not take it]"] : []),
    '</video>',
  ].join('\n');
}

/** What ReadMediaFile says of an image or a video it loaded (its docs page's message). */
function loadedMessage(
  kind: 'image' | 'video',
  path: string,
  mime: string,
  size: number,
  originalSize?: string,
) {
  const original = originalSize ? `, original size ${originalSize}` : '';
  return (
    `Loaded ${kind} file \`${path}\` (${mime}, ${size} bytes${original}). If you need to output coordinates, output ` +
    'relative coordinates first and compute absolute coordinates using the original image size; if you generate or ' +
    'edit images/videos via commands or scripts, read the result back immediately before continuing.'
  );
}

/** The test kit's workspace with the scenario's files, and `mediaTools(options)`: ReadMediaFile (images and videos) as AI SDK tools. */
export const mediaTest = test.extend('mediaTools', async ({ workspace, runtime }) => {
  await workspace.writeAll(mediaScenario.files);
  const readMedia = new ReadMediaFile(runtime, { capabilities: ['image_in', 'video_in'] });
  return (options?: AiSdkToolsOptions) => aiSdkTools([readMedia], options);
});
