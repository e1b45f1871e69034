import { nodeUtil } from '../fs/load-on-use.js';
import { counted } from '../text/counted.js';
import type { JsonObject, JsonValue } from './notebook-types.js';

/** Most lines one output shows; the rest are counted in one line (docs/read-file.md#notebooks). */
export const NOTEBOOK_OUTPUT_MAX_LINES = 50;

/** The nbformat 3 names of the MIME types its outputs store directly on the output. */
const V3_MIME_KEYS: Readonly<Record<string, string>> = {
  text: 'text/plain',
  html: 'text/html',
  latex: 'text/latex',
  png: 'image/png',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  javascript: 'application/javascript',
  json: 'application/json',
};

/** A multiline string as nbformat stores it: one string, or a list of lines to join. */
export function joinedText(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((part) => (typeof part === 'string' ? part : '')).join('');
  return '';
}

/** The lines of a text, `\r\n` and `\r` read as breaks; a final break ends the last line rather than starting one. */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function isImage(mime: string): boolean {
  return mime.startsWith('image/');
}

/** The output's MIME bundle: `data` in nbformat 4, the output's own v3 keys in nbformat 3. */
function mimeBundle(output: JsonObject): Record<string, JsonValue> {
  const data = output.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data;
  const bundle: Record<string, JsonValue> = {};
  for (const [key, mime] of Object.entries(V3_MIME_KEYS)) {
    if (output[key] !== undefined) bundle[mime] = output[key];
  }
  return bundle;
}

function capped(lines: string[]): string[] {
  if (lines.length <= NOTEBOOK_OUTPUT_MAX_LINES) return lines;
  const hidden = lines.length - NOTEBOOK_OUTPUT_MAX_LINES;
  return [
    ...lines.slice(0, NOTEBOOK_OUTPUT_MAX_LINES),
    `[... ${counted(hidden, 'more line', 'more lines')} of this output not shown]`,
  ];
}

/** The body of a result or display: a placeholder per image, then its text or a placeholder for its other types. */
function bundleLines(bundle: Record<string, JsonValue>, cellId: string, number: number): string[] {
  const lines: string[] = [];
  for (const mime of Object.keys(bundle).filter(isImage)) {
    lines.push(`[${mime} image in cell ${cellId}, output ${number}: not shown]`);
  }
  const text = bundle['text/plain'];
  if (text !== undefined) return [...lines, ...textLines(joinedText(text))];
  const others = Object.keys(bundle).filter((mime) => !isImage(mime));
  if (others.length > 0) lines.push(`[${others.join(', ')} output: not shown]`);
  return lines;
}

/** One output: a `--- output {n}: {kind} ---` line, then what it holds as text (docs/read-file.md#notebooks). */
export function renderOutput(value: JsonValue, cellId: string, number: number): string[] {
  const output = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const type = typeof output.output_type === 'string' ? output.output_type : 'unknown';
  switch (type) {
    case 'stream': {
      const name = typeof output.name === 'string' ? output.name : (output.stream ?? 'stdout');
      return [
        `--- output ${number}: stream ${String(name)} ---`,
        ...capped(textLines(nodeUtil().stripVTControlCharacters(joinedText(output.text)))),
      ];
    }
    case 'error':
    case 'pyerr': {
      // `{ename}: {evalue}` and the traceback, one line per line: an evalue may hold line breaks too.
      const traceback = Array.isArray(output.traceback) ? output.traceback : [];
      const entries = [`${String(output.ename ?? '')}: ${String(output.evalue ?? '')}`, ...traceback];
      const lines = entries.flatMap((entry) =>
        textLines(nodeUtil().stripVTControlCharacters(joinedText(entry))),
      );
      return [`--- output ${number}: error ---`, ...capped(lines)];
    }
    default:
      return [
        `--- output ${number}: ${type} ---`,
        ...capped(bundleLines(mimeBundle(output), cellId, number)),
      ];
  }
}
