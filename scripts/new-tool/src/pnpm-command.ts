/**
 * The pnpm running this script (`pnpm run ci` and the other root scripts set npm_execpath), else the repository's
 * pinned one through npx: a second npx start costs seconds on a loaded machine. Returns the program and the
 * arguments that come before pnpm's own.
 */
export function pnpmCommand(): [string, string[]] {
  const running = process.env['npm_execpath'];
  if (running && /pnpm\.c?js$/.test(running)) return [process.execPath, [running]];
  return ['npx', ['-y', 'pnpm@10.34.8']];
}
