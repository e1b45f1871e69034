import { describe, expect, test } from 'vitest';
import { runCli, USAGE } from './cli.js';

/** Runs the CLI against a root it must never reach (every case here stops before writing). */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, '/nonexistent-root', {
    out: (text) => (out += text),
    err: (text) => (err += text),
  });
  return { code, out, err };
}

describe('pnpm new-tool', () => {
  test('--help prints the usage', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: USAGE, err: '' });
  });

  test('says what is wrong, then the usage, and exits 1', async () => {
    expect(await run([])).toEqual({ code: 1, out: '', err: `new-tool: Give the package name.\n\n${USAGE}` });
    expect((await run(['a', 'b'])).err).toMatch(/^new-tool: One name only, got: a b\.\n/);
    expect((await run(['a', '--class'])).err).toMatch(/^new-tool: Unknown option '--class'/);
    expect((await run(['Not_Kebab'])).err).toMatch(
      /^new-tool: Invalid package name "Not_Kebab": use kebab-case/,
    );
  });
});
