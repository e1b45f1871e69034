import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Grep } from '@kimi-tools/search';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';

// docs/paths.md#sensitive-files: sensitive files are refused by ReadFile and dropped by Grep "to protect secrets" — their content must
// not reach the model by another door. Two doors found by path-attacks.test.ts, reduced to their minimum here.

const SECRET = 'sk-live-0123456789abcdef';

/** The kit's test; every test's work dir holds the secret in `.env` and `config.txt`, a symlink to it. */
const it = test.extend('planted', { auto: true }, async ({ workspace }) => {
  await workspace.write('.env', `API_KEY=${SECRET}\n`);
  await workspace.symlink('config.txt', '.env');
});

describe('sensitive file content never reaches the model', () => {
  it('ReadFile refuses the file and its alias (the door the other tools must match)', async ({
    workspace,
  }) => {
    const read = new ReadFile(workspace.runtime());
    for (const file of ['.env', 'config.txt']) {
      const result = await read.call({ path: file });
      expect(result.brief).toBe('Sensitive file');
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
  });

  // Found by this suite: a near miss of the secret made StrReplaceFile's "The closest text is at line N:" hint quote
  // the sensitive file. StrReplaceFile now refuses a sensitive file before reading it; this keeps it so.
  it('StrReplaceFile does not quote a sensitive file in its "closest text" hint', async ({ workspace }) => {
    const edit = new StrReplaceFile(workspace.runtime({ readBeforeWrite: false }));
    const result = await edit.call({
      path: '.env',
      edit: { old: `API_KEY=${SECRET.slice(0, -1)}X`, new: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(result.message).not.toContain(SECRET);
  });

  // Was a bug (fixed in search): Grep judged sensitivity on the name ripgrep printed, so a symlink with an
  // innocent name pointing at `.env`, given as `path`, showed the secret.
  it('Grep does not show a sensitive file through a symlink alias', async ({ workspace }) => {
    const grep = new Grep(workspace.runtime());
    const result = await grep.call({ pattern: 'API_KEY', path: 'config.txt', output_mode: 'content' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('Grep drops the sensitive file itself (the behaviour the alias bypasses)', async ({ workspace }) => {
    const grep = new Grep(workspace.runtime());
    const result = await grep.call({ pattern: 'API_KEY', path: '.env', output_mode: 'content' });
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
