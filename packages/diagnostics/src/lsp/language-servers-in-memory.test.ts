import { createTempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { describe, expect, it } from 'vitest';
import { addDiagnostics } from '../add-diagnostics.js';
import { typescriptLanguageServer } from './server-config.js';

describe('language servers on a file system that runs no programs (a workspace in memory)', () => {
  it('none is started: the files they serve are checked by the parsers, the others have no checker', async () => {
    const workspace = await createTempWorkspace({ backend: 'memory' });
    const runtime = workspace.runtime();
    addDiagnostics(runtime, {
      servers: [
        typescriptLanguageServer(),
        { name: 'text', command: 'kimi-tools-text-server', languages: { '.txt': 'plaintext' } },
      ],
      serverBudgetMs: 60_000,
    });
    try {
      const write = new WriteFile(runtime);
      const typescript = await write.call({ path: 'a.ts', content: 'export const a: number = (1;\n' });
      expect(typescript.message.split('\n\n').at(-1)).toBe(
        "Diagnostics: new problems, this change introduced 1 problem.\na.ts:1:28 error ')' expected.",
      );
      expect(typescript.extras?.diagnostics).toMatchObject({ checker: 'typescript' });
      const text = await write.call({ path: 'notes.txt', content: 'one\n' });
      expect(text.message.split('\n\n').at(-1)).toBe('Diagnostics: no checker for this kind of file.');
      expect(await workspace.read('notes.txt')).toBe('one\n');
    } finally {
      await runtime.close();
      await workspace.cleanup();
    }
  });
});
