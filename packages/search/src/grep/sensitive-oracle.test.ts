import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { GREP_OUTPUT_MODES } from './grep-params.js';
import { Grep } from './grep.js';

// A sensitive file's content must not change any part of Grep's answer: otherwise a model could learn a secret one
// guess at a time by comparing the answers to a right and a wrong guess (issue: the warning named `.env` only when
// the pattern matched inside it).
describe('Grep answers do not depend on the content of sensitive files', () => {
  it('gives the same answer for a right and a wrong guess, in every mode and search scope', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      '.env': 'API_KEY=s3cret\n',
      'sub/id_rsa': 'API_KEY=s3cret\n',
      'a.txt': 'API_KEY=<set me>\n',
    });
    await workspace.symlink('alias.txt', '.env');
    const tool = new Grep(workspace.runtime());
    for (const path of ['.', 'sub', '.env', 'alias.txt']) {
      for (const output_mode of GREP_OUTPUT_MODES) {
        const answer = async (pattern: string) => {
          const result = await tool.call({ pattern, path, output_mode });
          return { ...result, extras: result.extras };
        };
        const right = await answer('API_KEY=s3cret');
        const wrong = await answer('API_KEY=s3creX');
        expect(right, `${path} ${output_mode}`).toEqual(wrong);
      }
    }
  });
});
