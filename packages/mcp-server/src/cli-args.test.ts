import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

describe('parseCliArgs', () => {
  it('defaults to elicit with no extra directories', () => {
    expect(parseCliArgs(['/w'])).toEqual({
      kind: 'serve',
      workDir: '/w',
      addDirs: [],
      approval: 'elicit',
      structuredContent: false,
      allowOutside: false,
    });
  });

  it('reads repeated --add-dir and --approval, with or without =', () => {
    expect(
      parseCliArgs([
        '--add-dir',
        '/a',
        '--add-dir=/b',
        '--approval=yolo',
        '--structured-content',
        '--allow-outside',
        '/w',
      ]),
    ).toEqual({
      kind: 'serve',
      workDir: '/w',
      addDirs: ['/a', '/b'],
      approval: 'yolo',
      structuredContent: true,
      allowOutside: true,
    });
    expect(parseCliArgs(['/w', '--approval', 'reject'])).toMatchObject({ approval: 'reject' });
  });

  it('takes everything after -- as positional', () => {
    expect(parseCliArgs(['--', '--odd-dir-name'])).toMatchObject({
      kind: 'serve',
      workDir: '--odd-dir-name',
    });
  });

  it('answers help before anything else', () => {
    expect(parseCliArgs(['--bogus', '-h'])).toEqual({ kind: 'error', message: 'Unknown option --bogus.' });
    expect(parseCliArgs(['/w', '-h'])).toEqual({ kind: 'help' });
  });

  it('reads --permissions FILE, with or without =, and says when it has no value', () => {
    expect(parseCliArgs(['--permissions', 'rules.txt', '/w'])).toEqual({
      kind: 'serve',
      workDir: '/w',
      addDirs: [],
      approval: 'elicit',
      structuredContent: false,
      allowOutside: false,
      permissionsFile: 'rules.txt',
    });
    expect(parseCliArgs(['/w', '--permissions=.kimi-tools/permissions'])).toMatchObject({
      permissionsFile: '.kimi-tools/permissions',
    });
    expect(parseCliArgs(['/w', '--permissions'])).toEqual({
      kind: 'error',
      message: '--permissions needs a value.',
    });
  });

  it('rejects empty values and unknown flags given with =', () => {
    expect(parseCliArgs(['--add-dir=', '/w'])).toEqual({
      kind: 'error',
      message: '--add-dir needs a value.',
    });
    expect(parseCliArgs(['--color=always', '/w'])).toEqual({
      kind: 'error',
      message: 'Unknown option --color.',
    });
  });
});
