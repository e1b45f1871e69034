import {
  Briefs,
  didYouMeanHint,
  notAFileMessage,
  notFoundMessage,
  pathThroughFileMessage,
  sensitiveEditMessage,
  sensitiveFileMessage,
  unsupportedEncodingMessage,
} from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { hiddenFromListing, type HiddenPathTest } from '../permissions/denied-by-rule.js';
import type { RuledTool } from '../permissions/permission-rules.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import { pathApiFor } from './platform-path.js';
import { suggestSimilarFiles } from './suggest-similar.js';

/** Characters that show nothing: zero-width spaces and joiners, the soft hyphen, the byte-order mark... */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A name as a reader sees it: compatibility-normalised (NFKC: `é` however encoded, a no-break space as a space, `ﬁ` as
 * `fi`), without the characters that show nothing. Two names with the same reading look alike.
 */
function asRead(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '');
}

/**
 * `` `{path}` does not exist. `` / `File not found`, with ` Did you mean: ...?` when files in the same directory
 * on `fs` have a similar name (docs/read-file.md, docs/str-replace-file.md), none that `hidden` leaves out (the
 * calling tool's `hiddenFromListing`). `shownPath` is the path as the model gave it.
 */
export async function fileNotFoundError(
  fs: FileSystem,
  shownPath: string,
  absolutePath: string,
  workDir: string,
  hidden?: HiddenPathTest,
): Promise<ToolReturnValue<typeof Briefs.fileNotFound>> {
  // Names as the backend spells them: on a Windows host `\` separates them too.
  const paths = pathApiFor(fs.platform);
  const wanted = asRead(paths.basename(absolutePath));
  const hint = didYouMeanHint(
    await suggestSimilarFiles(fs, absolutePath, workDir, hidden),
    // The name offered differs from the one asked for, so reading the same once normalised is looking alike.
    (name) => asRead(paths.basename(name)) === wanted,
  );
  return toolError({ message: notFoundMessage(shownPath, hint), brief: Briefs.fileNotFound });
}

/**
 * {@link fileNotFoundError} for `tool` on `runtime`: its hint names no file the runtime's deny globs refuse or a `deny`
 * permission rule hides from the tool (docs/permissions.md#reads).
 */
export async function missingFileError(
  runtime: Pick<ToolRuntime, 'fs' | 'workDir' | 'paths' | 'permissions' | 'deny'>,
  tool: RuledTool | undefined,
  shownPath: string,
  absolutePath: string,
): Promise<ToolReturnValue<typeof Briefs.fileNotFound>> {
  const hidden = await hiddenFromListing(runtime, tool);
  return fileNotFoundError(runtime.fs, shownPath, absolutePath, runtime.workDir, hidden);
}

/**
 * `` `{path}` cannot be created: `{part}` is not a directory. `` / `Invalid path`: a part of the path above the file is
 * a file ({@link PathThroughFileError}); `{part}` is that part as the model gave the path (`levelsUp` parts up).
 */
export function pathThroughFileError(
  shownPath: string,
  levelsUp: number,
  platform: FileSystem['platform'],
): ToolReturnValue<typeof Briefs.invalidPath> {
  const paths = pathApiFor(platform);
  let part = shownPath;
  for (let level = 0; level < levelsUp; level++) part = paths.dirname(part);
  return toolError({ message: pathThroughFileMessage(shownPath, part), brief: Briefs.invalidPath });
}

/** `` `{path}` is not a file. `` / `Invalid path`: a directory, FIFO, device... where a regular file is needed. */
export function notAFileError(shownPath: string): ToolReturnValue<typeof Briefs.invalidPath> {
  return toolError({ message: notAFileMessage(shownPath), brief: Briefs.invalidPath });
}

/**
 * `` `{path}` appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect
 * credentials. `` / `Sensitive file`: what WriteFile and StrReplaceFile answer, before reading, for a sensitive file.
 */
export function sensitiveEditError(shownPath: string): ToolReturnValue<typeof Briefs.sensitiveFile> {
  return toolError({ message: sensitiveEditMessage(shownPath), brief: Briefs.sensitiveFile });
}

/**
 * `` `{path}` is not a valid text file in a supported encoding; it was not changed. `` / `Unsupported encoding`
 * (docs/encodings.md): a file that decodes in no supported encoding is never rewritten.
 */
export function unsupportedEncodingError(
  shownPath: string,
): ToolReturnValue<typeof Briefs.unsupportedEncoding> {
  return toolError({ message: unsupportedEncodingMessage(shownPath), brief: Briefs.unsupportedEncoding });
}

/**
 * `` `{path}` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect
 * credentials. `` / `Sensitive file`: what a tool answers for a file `runtime.paths.isSensitive` refuses.
 */
export function sensitiveFileError(shownPath: string): ToolReturnValue<typeof Briefs.sensitiveFile> {
  return toolError({ message: sensitiveFileMessage(shownPath), brief: Briefs.sensitiveFile });
}
