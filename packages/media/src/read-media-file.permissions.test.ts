import { pngBytes, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadMediaFile } from './read-media-file.js';

describe('ReadMediaFile and permission rules (docs/permissions.md)', () => {
  test('is a Read: a deny refuses it with the rule', async ({ workspace }) => {
    await workspace.write('screens/a.png', pngBytes(2, 2));
    await workspace.write('logo.png', pngBytes(2, 2));
    const runtime = workspace.runtime({ permissions: ['deny Read(screens/**)'] });
    const tool = new ReadMediaFile(runtime, { capabilities: ['image_in'] });
    const denied = await tool.call({ path: 'screens/a.png' });
    expect([denied.isError, denied.message, denied.brief]).toEqual([
      true,
      '`screens/a.png` is denied by the permission rule `deny Read(screens/**)`.',
      'Denied by permission rule',
    ]);
    expect((await tool.call({ path: 'logo.png' })).isError).toBe(false);
  });
});
