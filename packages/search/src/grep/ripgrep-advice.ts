/** What a pattern that needs a line break is told to do without `multiline`, by either engine (docs/grep.md). */
export const MULTILINE_ADVICE = 'Set multiline to true to match across lines.';

/** ripgrep's advice for that pattern, which names its own command-line flags. */
const RIPGREP_MULTILINE_ADVICE =
  'Consider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.';

/**
 * ripgrep's error output with its advice on its `--multiline` flag worded for Grep's `multiline` parameter: the model
 * cannot pass `-U`, and an argument Grep does not know is ignored. Any other text comes back unchanged.
 */
export function withGrepAdvice(stderr: string): string {
  return stderr.replace(RIPGREP_MULTILINE_ADVICE, MULTILINE_ADVICE);
}
