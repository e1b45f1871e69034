import { failsWhere, it, markRead } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const SECRET = 'API_KEY=sk-live-0123456789\n';

describe('StrReplaceFile: a hard link to a sensitive file', () => {
  failsWhere(it, 'sftp-hard-links')(
    'never quotes its text, however close the guess',
    async ({ workspace, runtime }) => {
      const env = await workspace.write('.env', SECRET);
      const notes = await workspace.link('notes.txt', '.env');
      await markRead(runtime, notes);
      const result = await new StrReplaceFile(runtime).call({
        path: 'notes.txt',
        edit: { old: 'API_KEY=sk-live-0123456780', new: 'API_KEY=x' },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).not.toContain('sk-live-0123456789');
      expect(await workspace.read(env)).toBe(SECRET);
    },
  );
});
