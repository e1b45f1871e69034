import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import { suggestSimilarFiles } from './suggest-similar.js';

/**
 * `` `{path}` does not exist. `` / `File not found`, with ` Did you mean: ...?` when files in the same directory
 * have a similar name (SPEC §2, §4). `shownPath` is the path as the model gave it.
 */
export async function fileNotFoundError(
  shownPath: string,
  absolutePath: string,
  workDir: string,
): Promise<ToolReturnValue> {
  const similar = await suggestSimilarFiles(absolutePath, workDir);
  const hint = similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : '';
  return toolError({ message: `\`${shownPath}\` does not exist.${hint}`, brief: 'File not found' });
}

/** `` `{path}` is not a file. `` / `Invalid path`: a directory, FIFO, device... where a regular file is needed. */
export function notAFileError(shownPath: string): ToolReturnValue {
  return toolError({ message: `\`${shownPath}\` is not a file.`, brief: 'Invalid path' });
}

/**
 * `` `{path}` is not a valid text file in a supported encoding; it was not changed. `` / `Unsupported encoding`
 * (SPEC 1.5): a file that decodes in no supported encoding is never rewritten.
 */
export function unsupportedEncodingError(shownPath: string): ToolReturnValue {
  return toolError({
    message: `\`${shownPath}\` is not a valid text file in a supported encoding; it was not changed.`,
    brief: 'Unsupported encoding',
  });
}
