import { describe, expect, it } from 'vitest';
import { yoloApproval } from '../approval/approval.js';
import { choiceOption, functionOption, positiveNumberOption, stringOption } from './options.js';
import { createRuntime, type RuntimeOptions } from './runtime.js';
import { defineRuntimeSlot } from './runtime-slot.js';

const approval = yoloApproval();

describe('createRuntime', () => {
  it('requires a work dir and an approval', () => {
    expect(() => createRuntime({ workDir: '', approval })).toThrow('createRuntime: workDir is required.');
    expect(() => createRuntime({ workDir: '/tmp' } as RuntimeOptions)).toThrow(
      'createRuntime: approval is required (e.g. yoloApproval()).',
    );
  });

  it('says where an option that belongs to one tool went', () => {
    const moved: Array<[string, unknown, string]> = [
      ['capabilities', ['image_in'], 'new ReadMediaFile(runtime, { capabilities })'],
      ['uploadVideo', async () => 'url', 'new ReadMediaFile(runtime, { uploadVideo })'],
      ['editMatch', 'first', 'new StrReplaceFile(runtime, { match })'],
      ['grepTimeoutMs', 5, 'new Grep(runtime, { timeoutMs })'],
      ['rgPath', '/usr/bin/rg', 'new Grep(runtime, { rgPath })'],
    ];
    for (const [name, value, place] of moved) {
      const options = { workDir: '/tmp', approval, [name]: value } as RuntimeOptions;
      expect(() => createRuntime(options)).toThrow(
        `createRuntime: ${name} is no longer a runtime option; give it to its tool: ${place}.`,
      );
    }
  });

  it('refuses a diff budget that is not a positive number', () => {
    for (const diffBudgetMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createRuntime({ workDir: '/tmp', approval, diffBudgetMs })).toThrow(
        `createRuntime: diffBudgetMs must be a positive number, got ${diffBudgetMs}.`,
      );
    }
    expect(createRuntime({ workDir: '/tmp', approval }).diffBudgetMs).toBe(200);
  });
});

describe('runtime slots', () => {
  it('give each runtime its own value, made once on first use', () => {
    let made = 0;
    const counter = defineRuntimeSlot('test.counter', (runtime) => ({
      workDir: runtime.workDir,
      id: ++made,
    }));
    const first = createRuntime({ workDir: '/tmp/a', approval });
    const second = createRuntime({ workDir: '/tmp/b', approval });
    expect(made).toBe(0);
    expect(first.slot(counter)).toEqual({ workDir: '/tmp/a', id: 1 });
    expect(first.slot(counter)).toBe(first.slot(counter));
    expect(second.slot(counter)).toEqual({ workDir: '/tmp/b', id: 2 });
    expect(made).toBe(2);
  });

  it('are told apart by the slot, not by its name', () => {
    const one = defineRuntimeSlot('same.name', () => 'one');
    const two = defineRuntimeSlot('same.name', () => 'two');
    const runtime = createRuntime({ workDir: '/tmp', approval });
    expect([runtime.slot(one), runtime.slot(two)]).toEqual(['one', 'two']);
  });
});

describe('tool option checks', () => {
  it('accept what is valid, default what is missing and name what is wrong', () => {
    expect(positiveNumberOption('Grep', 'timeoutMs', undefined, 20)).toBe(20);
    expect(positiveNumberOption('Grep', 'timeoutMs', 5, 20)).toBe(5);
    expect(() => positiveNumberOption('Grep', 'timeoutMs', -5, 20)).toThrow(
      'Grep: timeoutMs must be a positive number, got -5.',
    );
    expect(choiceOption('StrReplaceFile', 'match', undefined, ['unique', 'first'], 'unique')).toBe('unique');
    expect(() =>
      choiceOption('StrReplaceFile', 'match', 'last' as 'first', ['unique', 'first'], 'unique'),
    ).toThrow(`StrReplaceFile: match must be 'unique' or 'first', got "last".`);
    expect(stringOption('Grep', 'rgPath', '/bin/rg')).toBe('/bin/rg');
    expect(() => stringOption('Grep', 'rgPath', 42 as unknown as string)).toThrow(
      'Grep: rgPath must be a string, got number.',
    );
    expect(() => functionOption('ReadMediaFile', 'uploadVideo', {} as () => void)).toThrow(
      'ReadMediaFile: uploadVideo must be a function, got object.',
    );
  });
});
