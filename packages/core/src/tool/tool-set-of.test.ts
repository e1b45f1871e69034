import { describe, expect, it } from 'vitest';
import { toolOk, type ToolReturnValue } from '../result/tool-result.js';
import { createToolSet } from './tool-set.js';
import { toolSetOf } from './tool-set-of.js';

function echo(name: string) {
  return {
    name,
    description: `Echoes as ${name}.`,
    parameters: { type: 'object', properties: {} },
    call: async (args: unknown): Promise<ToolReturnValue> =>
      toolOk({ message: `${name} ${JSON.stringify(args)}` }),
  };
}

describe('toolSetOf', () => {
  it('returns a tool set as it is', () => {
    const set = createToolSet([echo('A')]);
    expect(toolSetOf(set)).toBe(set);
  });

  it('makes a tool set of a list of tools', async () => {
    const set = toolSetOf([echo('A'), echo('B')]);
    expect(set.names).toEqual(['A', 'B']);
    expect((await set.call('B', { x: 1 })).message).toBe('B {"x":1}');
  });

  it('refuses two tools of one name, as createToolSet does', () => {
    expect(() => toolSetOf([echo('A'), echo('A')])).toThrow('createToolSet: two tools are named "A".');
  });
});
