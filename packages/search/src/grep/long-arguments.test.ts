import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';

// An argument over 128 KiB is more than a command line takes (Linux's MAX_ARG_STRLEN; over SSH the whole command is
// one argument of the host's shell): ripgrep could not be started (`Failed to grep. Error: spawn E2BIG`), and the
// portable search, which takes anything, was not tried.
describe('Grep with an argument too long for a command line', () => {
  const long = (alternatives: number) =>
    `zebra|${Array.from({ length: alternatives }, (_, i) => `q${i}x`).join('|')}`;

  it('searches a 200 KB pattern with the portable search, as a short one', async ({ workspace }) => {
    await workspace.write('a.txt', 'zebra\n');
    await workspace.write('b.txt', 'horse\n');
    const tool = new Grep(workspace.runtime());
    const pattern = long(30_000);
    expect(Buffer.byteLength(pattern)).toBeGreaterThan(200_000);
    const result = await tool.call({ pattern, output_mode: 'content' });
    expect(result.isError).toBe(false);
    expect(result.output).toBe('a.txt:1:zebra');
    expect(result.extras).toMatchObject({ search: 'portable' });
  });
});
