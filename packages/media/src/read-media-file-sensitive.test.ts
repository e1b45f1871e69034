import { failsWhere, it, pngBytes } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadMediaFile } from './read-media-file.js';

const REFUSED =
  'appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.';

describe('ReadMediaFile: sensitive files', () => {
  failsWhere(it, 'sftp-hard-links')(
    'refuses an image the host marked sensitive, and a hard link to it, before looking at it',
    async ({ workspace }) => {
      await workspace.write('passport.secret.png', pngBytes(3, 2));
      await workspace.link('avatar.png', 'passport.secret.png');
      await workspace.write('logo.png', pngBytes(3, 2));
      const tool = new ReadMediaFile(workspace.runtime({ sensitive: ['*.secret.png'] }), {
        capabilities: ['image_in'],
      });
      for (const name of ['passport.secret.png', 'avatar.png', 'missing.secret.png']) {
        expect(await tool.call({ path: name }), name).toEqual({
          isError: true,
          output: '',
          message: `\`${name}\` ${REFUSED}`,
          brief: 'Sensitive file',
          display: [{ type: 'brief', text: 'Sensitive file' }],
        });
      }
      expect((await tool.call({ path: 'logo.png' })).isError).toBe(false);
    },
  );
});
