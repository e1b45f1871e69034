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

  test("names no file a deny rule hides from it in a missing file's hint", async ({ workspace }) => {
    await workspace.write('screens/a.png', pngBytes(2, 2));
    await workspace.write('screens/a.jpg', pngBytes(2, 2));
    const tool = (permissions: string[]) =>
      new ReadMediaFile(workspace.runtime({ permissions }), { capabilities: ['image_in'] });
    expect((await tool([]).call({ path: 'screens/a.gif' })).message).toBe(
      '`screens/a.gif` does not exist. Did you mean: screens/a.jpg, screens/a.png?',
    );
    expect((await tool(['deny Read(*.png)']).call({ path: 'screens/a.gif' })).message).toBe(
      '`screens/a.gif` does not exist. Did you mean: screens/a.jpg?',
    );
  });
});
