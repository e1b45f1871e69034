import { promises as fs } from 'node:fs';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { agentWrite } from '../__fixtures__/backends.js';
import { createCheckpoints, ListCheckpoints, Rewind } from '../index.js';

/** The kit's test, with `withRules`: a runtime with these permission rules, its approval, and its checkpoints. */
const it = test.extend('withRules', ({ workspace }) => (permissions: string[]) => {
  const approval = recordingApproval();
  const runtime = workspace.runtime({ approval, permissions });
  return { approval, runtime, checkpoints: createCheckpoints(runtime, { dir: workspace.outside('store') }) };
});

describe('Rewind and permission rules (docs/permissions.md)', () => {
  it('is an Edit judged on every file it would change: one denied file refuses the whole rewind', async ({
    workspace,
    withRules,
  }) => {
    const { approval, runtime, checkpoints } = withRules(['allow Edit(**)', 'deny Rewind(*.lock)']);
    await workspace.writeAll({ 'a.txt': 'one\n', 'deps.lock': 'v1\n' });
    await checkpoints.create('start');
    await agentWrite(runtime, 'a.txt', 'two\n');
    await agentWrite(runtime, 'deps.lock', 'v2\n');
    await checkpoints.create('end');
    const denied = await new Rewind(runtime).call({ checkpoint: '1' });
    expect([denied.isError, denied.message, denied.brief]).toEqual([
      true,
      '`deps.lock` is denied by the permission rule `deny Rewind(*.lock)`.',
      'Denied by permission rule',
    ]);
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('two\n');
    // Without the locked file, the allow lets it go ahead without asking.
    approval.requests.length = 0;
    const rewound = await new Rewind(runtime).call({ checkpoint: '1', paths: ['a.txt'] });
    expect(rewound.isError).toBe(false);
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one\n');
    expect(approval.requests).toEqual([]);
    const byRewind = approval.decisions.filter((decision) => decision.request.sender === 'Rewind');
    expect(byRewind.map((decision) => [decision.effect, decision.rule])).toEqual([
      ['deny', 'deny Rewind(*.lock)'],
      ['allow', 'allow Edit(**)'],
    ]);
  });

  it('ListCheckpoints is a Read and Rewind an Edit', ({ runtime }) => {
    expect([new ListCheckpoints(runtime).access, new Rewind(runtime).access]).toEqual(['read', 'edit']);
  });

  it('ListCheckpoints names no file a deny rule hides from it, nor counts it', async ({
    workspace,
    withRules,
  }) => {
    const { runtime, checkpoints } = withRules(['deny Read(secrets/)', 'deny Edit(a.txt)']);
    await workspace.writeAll({ 'a.txt': 'a\n', 'secrets/key.txt': 'k\n', 'old.txt': 'o\n' });
    const first = await checkpoints.create();
    await fs.rename(workspace.at('old.txt'), workspace.at('secrets/old.txt'));
    await workspace.write('secrets/key.txt', 'k2\n');
    const second = await checkpoints.create();
    const result = await new ListCheckpoints(runtime).call({});
    expect(result.output).toBe(
      `Checkpoint 1, ${first.time}: 2 files changed: a.txt (created), old.txt (created)\n` +
        `Checkpoint 2, ${second.time}: no file changed\n`,
    );
    expect(result.extras).toEqual({
      checkpoints: [
        { ...first, files: first.files.filter((file) => !file.path.startsWith('secrets/')) },
        { ...second, files: [] },
      ],
    });
    // The host's API lists every file.
    expect((await checkpoints.list())[1]!.files).toHaveLength(2);
  });
});
