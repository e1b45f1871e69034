import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { describe, expect, it } from 'vitest';
import { addDiagnostics } from '../add-diagnostics.js';

const RECORDING_SERVER = fileURLToPath(
  new URL('./__fixtures__/recording-language-server.mjs', import.meta.url),
);

// docs/paths.md#names-that-are-not-utf-8: `inv\xff.txt` and `inv\uFFFD.txt` are two files, so they are two documents
// to a language server: the URI of the first names its byte (`%FF`), never the UTF-8 of U+FFFD (`%EF%BF%BD`).
describe('a language server and a name that is not UTF-8', () => {
  it('is given each file under its own URI, its bytes percent-encoded', async () => {
    const workspace = await createTempWorkspace({ backend: 'local' });
    const opened = workspace.outside('opened');
    const runtime = workspace.runtime();
    addDiagnostics(runtime, {
      servers: [
        {
          name: 'recorder',
          command: 'node',
          args: [RECORDING_SERVER, workspace.outside('starts'), opened],
          languages: { '.txt': 'plaintext' },
        },
      ],
      serverBudgetMs: 60_000,
    });
    try {
      const write = new WriteFile(runtime);
      for (const path of ['"inv\\udcff.txt"', 'inv\ufffd.txt', '"a b/\\udc80%.txt"'])
        expect((await write.call({ path, content: 'x\n' })).isError).toBe(false);
      const root = `file://${workspace.workDir}`;
      expect((await fs.readFile(opened, 'utf8')).split('\n')).toEqual([
        `${root}/inv%FF.txt`,
        `${root}/inv%EF%BF%BD.txt`,
        `${root}/a%20b/%80%25.txt`,
        '',
      ]);
    } finally {
      await runtime.close();
      await workspace.cleanup();
    }
  });
});
