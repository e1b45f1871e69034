import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints, Rewind } from '../index.js';

/** The kit's test, with a runtime that denies `secrets/**`, its approval, and its checkpoints. */
const it = test.extend('policed', ({ workspace }) => {
  const approval = recordingApproval();
  const runtime = workspace.runtime({ approval, deny: ['secrets/**'] });
  return { approval, runtime, checkpoints: createCheckpoints(runtime, { dir: workspace.outside('store') }) };
});

describe('Rewind and the path policy (docs/checkpoints.md#rewind-the-tool)', () => {
  it('leaves a denied file and an existing sensitive one as they are, and names neither', async ({
    workspace,
    policed,
  }) => {
    const { approval, runtime, checkpoints } = policed;
    await workspace.writeAll({ '.env': 'KEY=old\n', 'secrets/prod.txt': 'v1\n', 'notes.txt': 'n1\n' });
    await checkpoints.create('1');
    await workspace.writeAll({ '.env': 'KEY=rotated\n', 'secrets/prod.txt': 'v2\n', 'notes.txt': 'n2\n' });
    await workspace.write('secrets/new.txt', 'new\n');
    await checkpoints.create('2');

    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect([result.isError, result.message]).toEqual([
      false,
      [
        'Rewound to checkpoint 1: 1 file changed.',
        'notes.txt: modified since the checkpoint, restored',
        'Left alone:',
        '3 files the workspace policy protects (denied, or sensitive): the rewind does not change or name them',
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
      ].join('\n'),
    ]);
    expect(result.extras).toMatchObject({ restored: [{ path: 'notes.txt' }], leftAlone: [] });
    expect(approval.requests.map((request) => request.description)).toEqual([
      'Rewind 1 file to checkpoint 1: notes.txt (modified)',
    ]);
    expect(
      await Promise.all(
        ['.env', 'secrets/prod.txt', 'secrets/new.txt', 'notes.txt'].map((file) => workspace.read(file)),
      ),
    ).toEqual(['KEY=rotated\n', 'v2\n', 'new\n', 'n1\n']);
  });

  it('recreates a sensitive file the agent deleted: nothing is there to protect', async ({
    workspace,
    policed,
  }) => {
    const { runtime, checkpoints } = policed;
    await workspace.writeAll({ '.env': 'KEY=old\n' });
    await checkpoints.create('1');
    await workspace.remove('.env');
    await checkpoints.create('2');
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.message.split('\n')[1]).toBe('.env: deleted since the checkpoint, recreated');
    expect(await workspace.read('.env')).toBe('KEY=old\n');
  });

  it('says there is nothing to rewind when only protected files differ', async ({ workspace, policed }) => {
    const { runtime, checkpoints } = policed;
    await workspace.writeAll({ 'secrets/prod.txt': 'v1\n' });
    await checkpoints.create('1');
    await workspace.write('secrets/prod.txt', 'v2\n');
    await checkpoints.create('2');
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.message).toBe(
      'Nothing to rewind: the files already match checkpoint 1.\nLeft alone:\n' +
        '1 file the workspace policy protects (denied, or sensitive): the rewind does not change or name it',
    );
    expect(await workspace.read('secrets/prod.txt')).toBe('v2\n');
  });
});
