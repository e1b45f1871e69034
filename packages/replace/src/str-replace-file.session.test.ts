import { FileHistory } from '@kimi-tools/core';
import { backendHas, recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { STR_REPLACE_FILE_DESCRIPTION } from './description.js';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `tool`: a StrReplaceFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

describe('within a session', () => {
  it('never loses one of two concurrent edits silently', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('race.txt', 'left middle right\n', { readBy: runtime });
    const [first, second] = await Promise.all([
      tool.call({ path: file, edit: { old: 'left', new: 'LEFT' } }),
      tool.call({ path: file, edit: { old: 'right', new: 'RIGHT' } }),
    ]);
    const content = await workspace.read(file);
    const applied = [first, second].filter((result) => !result.isError);
    const refused = [first, second].filter((result) => result.isError);
    // Each call either landed in the file or was refused as stale; the file holds exactly the ones that landed.
    for (const result of refused) expect(result.brief).toBe('File modified');
    expect(applied.length).toBeGreaterThanOrEqual(1);
    expect(content.includes('LEFT')).toBe(!first?.isError);
    expect(content.includes('RIGHT')).toBe(!second?.isError);
  });

  it.runIf(backendHas('hard-links'))(
    'never loses one of two concurrent edits of one file through two of its names (hard links)',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('race.txt', 'left middle right\n', { readBy: runtime });
      const other = await workspace.link('alias.txt', file);
      await workspace.write(other, 'left middle right\n', { readBy: runtime });
      const [first, second] = await Promise.all([
        tool.call({ path: file, edit: { old: 'left', new: 'LEFT' } }),
        tool.call({ path: other, edit: { old: 'right', new: 'RIGHT' } }),
      ]);
      // Both names show one file: the edit that took the lock first landed (either may, under load), the other was
      // refused, none reported done and lost.
      const results = [first, second];
      expect(results.filter((result) => result?.isError === false)).toHaveLength(1);
      expect(results.filter((result) => result?.brief === 'File modified')).toHaveLength(1);
      const expected = first?.isError ? 'left middle RIGHT\n' : 'LEFT middle right\n';
      expect(await workspace.read(other)).toBe(expected);
      expect(await workspace.read(file)).toBe(expected);
    },
  );

  it('saves the previous bytes in the history so an edit can be undone', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    const tool = new StrReplaceFile(runtime);
    const original = Buffer.from('a\r\nb\r\n');
    const file = await workspace.write('undo.txt', original, { readBy: runtime });
    await tool.call({ path: file, edit: { old: 'b', new: 'B' } });
    expect(Buffer.from(await workspace.bytes(file)).toString('latin1')).toBe('a\r\nB\r\n');
    expect(history.list()).toHaveLength(1);
    await history.restore(file);
    expect(Buffer.from(await workspace.bytes(file))).toEqual(original);
  });

  it('refuses to write when the file changes while the approval is pending', async ({ workspace }) => {
    let target = '';
    const runtime = workspace.runtime({
      approval: recordingApproval(async () => {
        await workspace.write(target, 'changed meanwhile\n');
        return { kind: 'approve' };
      }),
    });
    const tool = new StrReplaceFile(runtime);
    target = await workspace.write('slow.txt', 'original\n', { readBy: runtime });
    const result = await tool.call({ path: target, edit: { old: 'original', new: 'edited' } });
    expect(result).toMatchObject({ isError: true, brief: 'File modified' });
    expect(await workspace.read(target)).toBe('changed meanwhile\n');
  });
});

describe('what the model is told', () => {
  it('has the documented parameter names, types, defaults and required list, each described', async ({
    tool,
  }) => {
    const schema = tool.parameters as {
      required: string[];
      properties: Record<string, { description?: string; anyOf?: Array<Record<string, unknown>> }>;
    };
    expect(tool.name).toBe('StrReplaceFile');
    expect(schema.required).toEqual(['path', 'edit']);
    expect(Object.keys(schema.properties)).toEqual(['path', 'edit']);
    expect(schema.properties.path?.description).toBeTruthy();
    expect(schema.properties.edit?.description).toBeTruthy();
    const [single, list] = schema.properties.edit?.anyOf ?? [];
    expect(list).toMatchObject({ type: 'array', minItems: 1 });
    expect(single).toMatchObject({
      type: 'object',
      required: ['old', 'new'],
      properties: {
        old: { type: 'string' },
        new: { type: 'string' },
        replace_all: { type: 'boolean', default: false },
      },
    });
    const fields = (single as { properties: Record<string, { description?: string }> }).properties;
    for (const field of Object.values(fields)) expect(field.description).toBeTruthy();
  });

  it('describes uniqueness, literal insertion and the levels, the same for a file of any size', () => {
    expect(STR_REPLACE_FILE_DESCRIPTION).toContain('exactly **one** place');
    expect(STR_REPLACE_FILE_DESCRIPTION).toContain('`new` is inserted literally');
    expect(STR_REPLACE_FILE_DESCRIPTION).toContain('Tabs never match spaces at this step;');
    expect(STR_REPLACE_FILE_DESCRIPTION).toContain('line-number prefix, without the prefixes');
    expect(STR_REPLACE_FILE_DESCRIPTION).not.toMatch(/MiB|one edit per call/);
    expect(STR_REPLACE_FILE_DESCRIPTION).not.toContain('${');
  });
});
