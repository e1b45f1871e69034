import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { Glob, Grep } from './index.js';

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });

type Schema = {
  properties: Record<string, { description?: string; default?: unknown }>;
  required?: string[];
};

describe('tool schemas and descriptions', () => {
  it('Glob: docs/glob.md properties, defaults, and a description for each', () => {
    const glob = new Glob(runtime);
    const schema = glob.parameters as Schema;
    expect(glob.name).toBe('Glob');
    expect(Object.keys(schema.properties)).toEqual([
      'pattern',
      'directory',
      'include_dirs',
      'include_ignored',
    ]);
    expect(schema.required).toEqual(['pattern']);
    expect(schema.properties['directory']?.default).toBeNull();
    expect(schema.properties['include_dirs']?.default).toBe(true);
    expect(schema.properties['include_ignored']?.default).toBe(false);
    for (const property of Object.values(schema.properties)) expect(property.description).toBeTruthy();
    expect(glob.description).toContain('At most 1000 paths are returned');
    expect(glob.description).toContain('`**/*.ts`');
  });

  it('Grep: docs/grep.md properties in order, defaults, and a description for each', () => {
    const grep = new Grep(runtime);
    const schema = grep.parameters as Schema;
    expect(grep.name).toBe('Grep');
    expect(Object.keys(schema.properties)).toEqual([
      'pattern',
      'path',
      'glob',
      'output_mode',
      '-B',
      '-A',
      '-C',
      '-n',
      '-i',
      'type',
      'head_limit',
      'offset',
      'multiline',
      'include_ignored',
    ]);
    expect(schema.required).toEqual(['pattern']);
    const defaults = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, value.default]),
    );
    expect(defaults).toEqual({
      pattern: undefined,
      path: '.',
      glob: null,
      output_mode: 'files_with_matches',
      '-B': null,
      '-A': null,
      '-C': null,
      '-n': true,
      '-i': false,
      type: null,
      head_limit: 250,
      offset: 0,
      multiline: false,
      include_ignored: false,
    });
    for (const property of Object.values(schema.properties)) expect(property.description).toBeTruthy();
    expect(grep.description).toContain('default 250');
    expect(grep.description).toContain('2000');
  });

  it('rejects bad arguments before searching', async () => {
    const grep = new Grep(runtime);
    const result = await grep.call({ pattern: 'x', '-C': -1 });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('Invalid arguments');
    expect((await new Glob(runtime).call({ pattern: 'x', include_dirs: 'yes' })).brief).toBe(
      'Invalid arguments',
    );
  });
});
