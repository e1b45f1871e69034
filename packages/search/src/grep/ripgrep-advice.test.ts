import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';
import { withGrepAdvice } from './ripgrep-advice.js';

// ripgrep advises its own `--multiline` flag (`-U`), which the model cannot pass: Grep's parameter is `multiline`, and
// an unknown `-U` argument would be ignored. The advice names the parameter, as the portable search's does.
describe("ripgrep's advice names Grep's parameters", () => {
  for (const [pattern, literal] of [
    ['a\\nb', '\\n'],
    ['a\\rb', '\\r'],
  ]) {
    it(`a \`${literal}\` without multiline`, async ({ workspace }) => {
      await workspace.write('a.txt', 'zebra\n');
      const result = await new Grep(workspace.runtime()).call({ pattern });
      expect(result).toMatchObject({
        isError: true,
        brief: 'Failed to grep',
        message: `Failed to grep. Error: rg: the literal "${literal}" is not allowed in a regex\n\nSet multiline to true to match across lines.`,
      });
    });
  }

  it('leaves any other error output as it is', () => {
    const pcre2 =
      'rg: regex parse error:\n    a(?=b)\n     ^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.\n';
    expect(withGrepAdvice(pcre2)).toBe(pcre2);
    expect(withGrepAdvice('rg: the literal "\\n" is not allowed in a regex\n')).toBe(
      'rg: the literal "\\n" is not allowed in a regex\n',
    );
  });
});
