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
      checkpoints: true,
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
      checkpoints: true,
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
      checkpoints: true,
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

  it('refuses an empty WORKDIR, which would serve whatever directory the client started the server in', () => {
    const empty = { kind: 'error', message: 'WORKDIR is empty: give the path of the project directory.' };
    expect(parseCliArgs([''])).toEqual(empty);
    expect(parseCliArgs(['--approval', 'yolo', '--', ''])).toEqual(empty);
  });

  it('reads --ssh with its --identity and --host-key, and --no-checkpoints', () => {
    expect(
      parseCliArgs([
        '--ssh',
        'deploy@build:2222',
        '--identity=/keys/deploy',
        '--host-key',
        'SHA256:abc',
        '--add-dir',
        '/srv/shared',
        '--no-checkpoints',
        '/srv/app',
      ]),
    ).toEqual({
      kind: 'serve',
      workDir: '/srv/app',
      addDirs: ['/srv/shared'],
      approval: 'elicit',
      structuredContent: false,
      allowOutside: false,
      ssh: { destination: 'deploy@build:2222', identityFile: '/keys/deploy', hostKey: 'SHA256:abc' },
      checkpoints: false,
    });
  });

  it('refuses what --ssh cannot serve: a relative directory, or its options without it', () => {
    expect(parseCliArgs(['--ssh', 'build', 'app'])).toEqual({
      kind: 'error',
      message: 'With --ssh, WORKDIR is a directory on the host: give its absolute path, not app.',
    });
    expect(parseCliArgs(['--ssh', 'build', '--add-dir', 'lib', '/srv/app'])).toEqual({
      kind: 'error',
      message: 'With --ssh, --add-dir is a directory on the host: give its absolute path, not lib.',
    });
    expect(parseCliArgs(['--identity', '/k', '/w'])).toEqual({
      kind: 'error',
      message: '--identity is an option of --ssh: give --ssh [USER@]HOST[:PORT] too.',
    });
    expect(parseCliArgs(['--host-key', 'SHA256:abc', '/w'])).toEqual({
      kind: 'error',
      message: '--host-key is an option of --ssh: give --ssh [USER@]HOST[:PORT] too.',
    });
    expect(parseCliArgs(['/w', '--ssh'])).toEqual({ kind: 'error', message: '--ssh needs a value.' });
  });
});
