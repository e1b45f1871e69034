import { pngBytes } from './media-bytes.js';
import type { TempWorkspace } from './temp-workspace.js';

/**
 * The session every adapter test replays, with the exact text a model reads back (as the tools' docs pages word it):
 * read a file, try an edit that matches nothing, make the edit, look at a picture. The tests build the tools
 * (ReadFile, StrReplaceFile, ReadMediaFile with `image_in`) on a runtime of the workspace.
 */
export const agentScenario = {
  /** The files to write in the work dir first. */
  files: { 'answer.ts': 'export const answer = 41;\n', 'picture.png': pngBytes(2, 2) },
  /** `answer.ts` once edited. */
  editedSource: 'export const answer = 42;\n',
  /** The calls, in order; the read gives `line_offset` as a numeric string, which the tool's coercion accepts. */
  calls: {
    read: { name: 'ReadFile', input: { path: 'answer.ts', line_offset: '1' } },
    badEdit: { name: 'StrReplaceFile', input: { path: 'answer.ts', edit: { old: 'zzz', new: 'yyy' } } },
    edit: { name: 'StrReplaceFile', input: { path: 'answer.ts', edit: { old: '41', new: '42' } } },
    image: { name: 'ReadMediaFile', input: { path: 'picture.png' } },
  },
  /** What the model reads for each text-only call. */
  texts: {
    read: '1 lines read from file starting from line 1. Total lines in file: 1. End of file reached.\n     1\texport const answer = 41;\n',
    badEdit: 'ERROR: Edit 1: the old string was not found in the file. No changes were made.',
    edit: 'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).\n     1\texport const answer = 42;\n',
  },
} as const;

/** The picture's bytes in base64, as every API carries them. */
export const agentPictureBase64 = Buffer.from(agentScenario.files['picture.png']).toString('base64');

/** The three text parts ReadMediaFile gives around the picture: its message, then the opening and closing tags. */
export function agentImageTexts(workspace: TempWorkspace): [string, string, string] {
  const path = workspace.at('picture.png');
  const size = agentScenario.files['picture.png'].length;
  return [
    `Loaded image file \`${path}\` (image/png, ${size} bytes, original size 2x2px). If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the original image size; if you generate or edit images/videos via commands or scripts, read the result back immediately before continuing.`,
    `<image path="${path}">`,
    '</image>',
  ];
}
