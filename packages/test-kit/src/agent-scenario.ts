import { expect } from 'vitest';
import { pngBytes, scannedPdfBytes } from './media-bytes.js';
import type { TempWorkspace } from './temp-workspace.js';

/**
 * The session every adapter test replays, with the exact text a model reads back (as the tools' docs pages word it):
 * read a file, try an edit that matches nothing, make the edit, look at a picture and at a scanned PDF (its page sent
 * as a JPEG image). The tests build the tools (ReadFile, StrReplaceFile, ReadMediaFile with `image_in`) on a runtime
 * of the workspace.
 */
export const agentScenario = {
  /** The files to write in the work dir first. */
  files: {
    'answer.ts': 'export const answer = 41;\n',
    'picture.png': pngBytes(2, 2),
    'scan.pdf': scannedPdfBytes(),
  },
  /** `answer.ts` once edited. */
  editedSource: 'export const answer = 42;\n',
  /** The calls, in order; the read gives `line_offset` as a numeric string, which the tool's coercion accepts. */
  calls: {
    read: { name: 'ReadFile', input: { path: 'answer.ts', line_offset: '1' } },
    badEdit: { name: 'StrReplaceFile', input: { path: 'answer.ts', edit: { old: 'zzz', new: 'yyy' } } },
    edit: { name: 'StrReplaceFile', input: { path: 'answer.ts', edit: { old: '41', new: '42' } } },
    image: { name: 'ReadMediaFile', input: { path: 'picture.png' } },
    scan: { name: 'ReadMediaFile', input: { path: 'scan.pdf' } },
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

/**
 * The four text parts ReadMediaFile gives around the scanned PDF's page image (a JPEG the page renderer makes): its
 * message, the opening tag, the page's line, then the closing tag.
 */
export function agentScanTexts(workspace: TempWorkspace): [string, string, string, string] {
  const path = workspace.at('scan.pdf');
  const size = agentScenario.files['scan.pdf'].length;
  return [
    `Read page 1 of 1 of PDF \`${path}\` (${size} bytes). No text layer on page 1: sent as an image. This is the end of the document.`,
    `<pdf path="${path}" pages="1-1" total_pages="1">`,
    '--- Page 1 (no text layer; as an image) ---',
    '</pdf>',
  ];
}

/**
 * Matchers of the scanned page's image as the APIs carry it: JPEG bytes in base64, alone or in a `data:` URL. The
 * bytes are the page renderer's own, so a test checks what they are, not each of them.
 */
export const agentScanImage = {
  base64: expect.stringMatching(/^\/9j\//) as string,
  dataUrl: expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//) as string,
};
