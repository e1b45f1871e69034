import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Grep } from '@kimi-tools/search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

// docs/paths.md#sensitive-files: sensitive files are refused by ReadFile and dropped by Grep "to protect secrets" — their content must
// not reach the model by another door. Two doors found by path-attacks.test.ts, reduced to their minimum here.

const SECRET = 'sk-live-0123456789abcdef';

let workDir: string;
beforeEach(async () => {
  workDir = await makeTempDir('sensitive');
  await fs.writeFile(path.join(workDir, '.env'), `API_KEY=${SECRET}\n`);
  await fs.symlink('.env', path.join(workDir, 'config.txt'));
});
afterEach(async () => {
  await removeTempDir(workDir);
});

describe('sensitive file content never reaches the model', () => {
  it('ReadFile refuses the file and its alias (the door the other tools must match)', async () => {
    const read = new ReadFile(createRuntime({ workDir, approval: yoloApproval() }));
    for (const file of ['.env', 'config.txt']) {
      const result = await read.call({ path: file });
      expect(result.brief).toBe('Sensitive file');
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
  });

  // Found by this suite: a near miss of the secret made StrReplaceFile's "The closest text is at line N:" hint quote
  // the sensitive file. Fixed in replace (c7de352: no excerpt for sensitive files); this keeps it fixed.
  it('StrReplaceFile does not quote a sensitive file in its "closest text" hint', async () => {
    const edit = new StrReplaceFile(
      createRuntime({ workDir, approval: yoloApproval(), readBeforeWrite: false }),
    );
    const result = await edit.call({
      path: '.env',
      edit: { old: `API_KEY=${SECRET.slice(0, -1)}X`, new: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(result.message).not.toContain(SECRET);
  });

  // Was a bug (fixed in search): Grep judged sensitivity on the name ripgrep printed, so a symlink with an
  // innocent name pointing at `.env`, given as `path`, showed the secret.
  it('Grep does not show a sensitive file through a symlink alias', async () => {
    const grep = new Grep(createRuntime({ workDir, approval: yoloApproval() }));
    const result = await grep.call({ pattern: 'API_KEY', path: 'config.txt', output_mode: 'content' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('Grep drops the sensitive file itself (the behaviour the alias bypasses)', async () => {
    const grep = new Grep(createRuntime({ workDir, approval: yoloApproval() }));
    const result = await grep.call({ pattern: 'API_KEY', path: '.env', output_mode: 'content' });
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
