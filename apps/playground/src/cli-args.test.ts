import { describe, expect, it } from 'vitest';
import { parsePlaygroundArgs } from './cli-args.js';

describe('parsePlaygroundArgs', () => {
  it('has defaults for a bare run', () => {
    expect(parsePlaygroundArgs([])).toEqual({
      help: false,
      script: undefined,
      workdir: undefined,
      yolo: false,
      answers: [],
      keep: false,
      undo: true,
    });
  });

  it('reads every option, repeated --answers in order, and skips the `--` pnpm passes on', () => {
    expect(
      parsePlaygroundArgs([
        '--',
        '--script',
        's.json',
        '--workdir',
        'dir',
        '--yolo',
        '--answers',
        'y,n:use tabs',
        '--answers=a',
        '--keep',
        '--no-undo',
      ]),
    ).toEqual({
      help: false,
      script: 's.json',
      workdir: 'dir',
      yolo: true,
      answers: [
        { kind: 'approve' },
        { kind: 'reject', feedback: 'use tabs' },
        { kind: 'approve_for_session' },
      ],
      keep: true,
      undo: false,
    });
    expect(parsePlaygroundArgs(['-h'])).toMatchObject({ help: true });
  });

  it('refuses unknown options, stray arguments, bad answers and --workdir without --script', () => {
    expect(parsePlaygroundArgs(['--nope'])).toEqual({
      error: expect.stringContaining("Unknown option '--nope'"),
    });
    expect(parsePlaygroundArgs(['extra'])).toEqual({
      error: expect.stringContaining("Unexpected argument 'extra'"),
    });
    expect(parsePlaygroundArgs(['--answers', 'y:ok'])).toEqual({
      error:
        '--answers: "y:ok" is not an answer: use y, a, n, n:FEEDBACK, h:HUNKS or e (comma-separated, e.g. y,a,n:use tabs,h:h1+h3).',
    });
    expect(parsePlaygroundArgs(['--workdir', 'dir'])).toEqual({
      error: expect.stringMatching(/^--workdir needs --script/),
    });
  });
});
