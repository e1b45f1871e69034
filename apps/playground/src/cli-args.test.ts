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
      permissions: undefined,
      place: { kind: 'local' },
    });
  });

  it('reads --permissions FILE', () => {
    expect(parsePlaygroundArgs(['--permissions', 'rules.txt'])).toMatchObject({ permissions: 'rules.txt' });
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
      place: { kind: 'local' },
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
        '--answers: "y:ok" is not an answer: use y, a, a:file, a:dir, n, n:FEEDBACK, h:HUNKS or e (comma-separated, e.g. y,a,n:use tabs,h:h1+h3).',
    });
    expect(parsePlaygroundArgs(['--workdir', 'dir'])).toEqual({
      error: expect.stringMatching(/^--workdir needs --script/),
    });
  });

  it('reads where the files are: --in-memory, or --ssh with its directory on the host', () => {
    expect(parsePlaygroundArgs(['--in-memory'])).toMatchObject({ place: { kind: 'memory' } });
    expect(
      parsePlaygroundArgs([
        '--ssh',
        'deploy@devbox:2222',
        '/srv/tmp',
        '--identity',
        'k',
        '--host-key=SHA256:x',
      ]),
    ).toMatchObject({
      place: {
        kind: 'ssh',
        destination: 'deploy@devbox:2222',
        dir: '/srv/tmp',
        identityFile: 'k',
        hostKey: 'SHA256:x',
      },
    });
    expect(parsePlaygroundArgs(['--ssh', 'devbox', '/tmp', '--keep'])).toMatchObject({
      keep: true,
      place: { kind: 'ssh', destination: 'devbox', dir: '/tmp' },
    });
  });

  it('refuses places that cannot be', () => {
    const error = (argv: string[]) => (parsePlaygroundArgs(argv) as { error?: string }).error;
    expect(error(['--ssh', 'devbox'])).toBe(
      '--ssh needs the directory on the host to work in: --ssh [USER@]HOST[:PORT] DIR.',
    );
    expect(error(['--ssh', 'devbox', '/a', '/b'])).toBe(
      '--ssh takes one directory on the host, got 2: /a /b.',
    );
    expect(error(['--ssh', 'devbox', 'tmp'])).toBe(
      'The directory on the host must be an absolute path, not tmp.',
    );
    expect(error(['--ssh', 'devbox', '/tmp', '--in-memory'])).toBe(
      '--in-memory and --ssh are two places for the files: give one.',
    );
    expect(error(['--identity', 'k'])).toBe(
      '--identity is an option of --ssh: give --ssh [USER@]HOST[:PORT] DIR too.',
    );
    expect(error(['--host-key', 'k'])).toBe(
      '--host-key is an option of --ssh: give --ssh [USER@]HOST[:PORT] DIR too.',
    );
    expect(error(['--in-memory', '--keep'])).toBe(
      '--keep keeps the temporary directory, and --in-memory has none: its files end with the session.',
    );
    expect(error(['--in-memory', '--workdir', 'd', '--script', 's'])).toBe(
      '--workdir is a directory of this machine: it cannot be used with --in-memory.',
    );
    expect(error(['--ssh', 'devbox', '/tmp', '--workdir', 'd', '--script', 's'])).toBe(
      '--workdir is a directory of this machine: it cannot be used with --ssh.',
    );
  });
});
