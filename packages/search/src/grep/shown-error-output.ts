import { shownArgument, shownErrorLines } from '@kimi-tools/core/toolkit';
import type { GrepParams } from './grep-params.js';
import { withOwnPattern } from './own-pattern-error.js';
import { withGrepAdvice } from './ripgrep-advice.js';

/**
 * `text` with each argument it quotes raw (`type` in `unrecognized file type: {type}`, the glob in `error parsing
 * glob '{glob}'`) shown as core shows an argument that is not a path: a line feed in one would make a line of its own.
 * An argument that shows as it is is left alone.
 */
function withShownArguments(text: string, args: readonly (string | null)[]): string {
  let shownText = text;
  for (const arg of args) {
    if (arg === null || arg === '') continue;
    const shown = shownArgument(arg);
    if (shown !== arg) shownText = shownText.split(arg).join(shown);
  }
  return shownText;
}

/**
 * The error output of a search (ripgrep's, or the portable search's in ripgrep's words) as `Failed to grep. Error:
 * {output}` shows it (docs/grep.md, "Errors"): the pattern as the model wrote it, the arguments it quotes shown as
 * arguments are, Grep's advice for ripgrep's, and every line as a line of a file is shown, cut past 66,534 characters.
 */
export function shownErrorOutput(
  stderr: string,
  params: Pick<GrepParams, 'pattern' | 'type' | 'glob'>,
): string {
  const ownWords = withGrepAdvice(withOwnPattern(stderr, params.pattern));
  return shownErrorLines(withShownArguments(ownWords, [params.type, params.glob]).trim());
}
