import fs from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';

const SECRET = 'API_KEY=sk-live-0123456789\n';

describe('Grep: a hard link to a sensitive file', () => {
  it('never shows the linked file or its content, in any mode', async ({ workspace, runtime }) => {
    const env = await workspace.write('.env', SECRET);
    await workspace.write('readme.md', 'API_KEY goes in .env\n');
    await fs.link(env, workspace.at('notes.txt'));
    const grep = new Grep(runtime);
    for (const output_mode of ['content', 'files_with_matches', 'count_matches'] as const) {
      const result = await grep.call({ pattern: 'API_KEY', output_mode });
      expect(result.isError, output_mode).toBe(false);
      expect(result.output, output_mode).toContain('readme.md');
      expect(result.output, output_mode).not.toContain('notes.txt');
      expect(result.output, output_mode).not.toContain('sk-live');
    }
    const direct = await grep.call({ pattern: 'API_KEY', path: 'notes.txt', output_mode: 'content' });
    expect(direct.output).toBe('');
  });
});
