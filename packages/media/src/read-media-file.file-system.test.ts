import { pngBytes, SFTP_CAPABILITIES, test, translatedRuntime } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadMediaFile } from './read-media-file.js';

// The runtime's file system shows the workspace at /virtual: a read that went to the disk directly would find nothing.
describe.each([
  ['the local disk', {}],
  ['SFTP', { capabilities: SFTP_CAPABILITIES }],
])('ReadMediaFile through the runtime’s file system (as %s can do)', (_name, options) => {
  test('loads an image, says which near name was meant, and refuses a sensitive file', async ({
    workspace,
  }) => {
    const bytes = pngBytes(3, 2);
    await workspace.write('pic.png', bytes);
    await workspace.write('key.p12', bytes);
    const { runtime, at, files } = translatedRuntime(workspace, options);
    const tool = new ReadMediaFile(runtime, { capabilities: ['image_in'] });
    const result = await tool.call({ path: 'pic.png' });
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${at('pic.png')}">` },
      { type: 'image_url', url: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}` },
      { type: 'text', text: '</image>' },
    ]);
    expect((await tool.call({ path: 'pic.jpg' })).message).toBe(
      '`pic.jpg` does not exist. Did you mean: pic.png?',
    );
    expect((await tool.call({ path: 'key.p12' })).brief).toBe('Sensitive file');
    expect(files.operations).toContain('open /virtual/work/pic.png');
  });
});
