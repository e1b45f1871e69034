import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from '@kimi-tools/test-kit';
import { afterEach, describe, expect, vi } from 'vitest';
import { PathPolicy, type PathPolicySettings, type PathResult } from './path-policy.js';
import { localFileSystem } from '../fs/local-file-system.js';

/**
 * The kit's test, with `policy`: makes a PathPolicy on the work dir (home `root/home` unless told). Every test starts
 * from `root/home/`, `work/a.txt` and `outside/secret.txt`.
 */
const it = test.extend('policy', { auto: true }, async ({ workspace }) => {
  await workspace.mkdir(path.join(workspace.root, 'home'));
  await workspace.write('a.txt', 'a');
  await workspace.write(workspace.outside('secret.txt'), 's');
  return (overrides: Partial<PathPolicySettings> = {}, homeDir = path.join(workspace.root, 'home')) =>
    new PathPolicy(
      {
        workDir: workspace.workDir,
        additionalDirs: [],
        outside: 'allow',
        deny: [],
        sensitive: [],
        ...overrides,
      },
      { fs: localFileSystem, homeDir },
    );
});

function expectError(result: PathResult, message: string, brief: string) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.isError).toBe(true);
  expect(result.error.message).toBe(message);
  expect(result.error.brief).toBe(brief);
  expect(result.error.display).toEqual([{ type: 'brief', text: brief }]);
}

function expectPath(result: PathResult) {
  expect(result.ok).toBe(true);
  if (!result.ok) throw new Error(result.error.message);
  return result.path;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PathPolicy.resolveFile: input checks (docs/paths.md)', () => {
  it('refuses the empty path', async ({ policy }) => {
    expectError(await policy().resolveFile('', 'read'), 'File path cannot be empty.', 'Empty file path');
  });

  it('refuses NUL bytes and UNC paths before touching the file system', async ({ policy }) => {
    const realpath = vi.spyOn(fs, 'realpath');
    const lstat = vi.spyOn(fs, 'lstat');
    const p = policy();
    // The NUL is shown escaped (docs/paths.md#how-paths-are-shown).
    for (const [bad, shown] of [
      ['a\0b', '"a\\u0000b"'],
      ['\\\\server\\share\\x.txt', '\\\\server\\share\\x.txt'],
      ['//server/share/x.txt', '//server/share/x.txt'],
    ]) {
      expectError(await p.resolveFile(bad!, 'write'), `\`${shown}\` is not a valid path.`, 'Invalid path');
      expectError(
        await p.resolveSearchPath(bad!, 'Path outside workspace'),
        `\`${shown}\` is not a valid path.`,
        'Invalid path',
      );
    }
    expect(realpath).not.toHaveBeenCalled();
    expect(lstat).not.toHaveBeenCalled();
  });

  it('refuses a path that is not well-formed Unicode before touching the file system', async ({ policy }) => {
    const realpath = vi.spyOn(fs, 'realpath');
    const lstat = vi.spyOn(fs, 'lstat');
    const p = policy();
    for (const bad of ['d\ud800/n.txt', 'a\udfff.txt']) {
      const file = await p.resolveFile(bad, 'write');
      const search = await p.resolveSearchPath(bad, 'Path outside workspace');
      for (const result of [file, search])
        expect(result).toMatchObject({ ok: false, error: { brief: 'Invalid path' } });
    }
    expect(realpath).not.toHaveBeenCalled();
    expect(lstat).not.toHaveBeenCalled();
  });

  it('refuses a file path ending in a separator, for every verb: it names a directory', async ({
    policy,
    workspace,
  }) => {
    const p = policy();
    await workspace.mkdir('sub');
    await fs.symlink(workspace.at('sub'), workspace.at('link'));
    for (const verb of ['read', 'write', 'edit'] as const) {
      for (const input of ['newdir/', 'a.txt/', 'sub/x/', `${workspace.outside('secret.txt')}/`]) {
        expectError(
          await p.resolveFile(input, verb),
          `\`${input}\` ends with a path separator, so it names a directory, not a file.`,
          'Invalid path',
        );
      }
      // An existing directory (or a link to one) is that directory: the tool answers as without the separator.
      for (const input of [`${workspace.workDir}/`, 'sub/', 'link/']) {
        const without = expectPath(await p.resolveFile(input.slice(0, -1), verb));
        expect(expectPath(await p.resolveFile(input, verb))).toEqual({
          ...without,
          input,
          expanded: `${without.expanded}/`,
        });
      }
    }
    // Under `deny`, a directory outside is refused as outside, never looked at.
    const outsideDir = `${path.dirname(workspace.outside('secret.txt'))}/`;
    expectError(
      await policy({ outside: 'deny' }).resolveFile(outsideDir, 'read'),
      `\`${outsideDir}\` is outside the workspace.`,
      'Outside workspace',
    );
    // A search path names a directory anyway: the separator is fine there.
    expectPath(await p.resolveSearchPath(`${workspace.workDir}/`, 'Path outside workspace'));
  });

  it('does touch the file system for valid paths (so the spy above can fail)', async ({ policy }) => {
    const realpath = vi.spyOn(fs, 'realpath');
    expectPath(await policy().resolveFile('a.txt', 'read'));
    expect(realpath).toHaveBeenCalled();
  });

  it('resolves relative paths against workDir, never process.cwd()', async ({ workspace, policy }) => {
    expect(process.cwd()).not.toBe(workspace.workDir);
    const resolved = expectPath(await policy().resolveFile('a.txt', 'read'));
    expect(resolved).toEqual({
      input: 'a.txt',
      expanded: 'a.txt',
      absolute: workspace.at('a.txt'),
      real: workspace.at('a.txt'),
      inside: true,
    });
  });

  it('expands ~ and ~/ to the home directory, not ~user', async ({ workspace, policy }) => {
    const home = path.join(workspace.root, 'home');
    const p = policy({}, workspace.workDir);
    expect(expectPath(await p.resolveFile('~/a.txt', 'read')).real).toBe(workspace.at('a.txt'));
    expect(expectPath(await p.resolveFile('~', 'read')).absolute).toBe(workspace.workDir);
    const tilde = expectPath(await p.resolveFile('~bob/x', 'read'));
    expect(tilde.absolute).toBe(path.join(workspace.workDir, '~bob', 'x'));
    expect(tilde.inside).toBe(true);
    const outsideHome = expectPath(await policy({}, home).resolveFile('~/notes.md', 'read'));
    expect(outsideHome).toMatchObject({ expanded: path.join(home, 'notes.md'), inside: false });
  });

  it('applies the Windows conversions when the platform is win32', async () => {
    const p = new PathPolicy(
      { workDir: 'C:\\work', additionalDirs: [], outside: 'allow', deny: ['**/.git/**'], sensitive: [] },
      { fs: localFileSystem, platform: 'win32', homeDir: 'C:\\Users\\me' },
    );
    expect(expectPath(await p.resolveFile('/c/work/src/a.ts', 'read'))).toMatchObject({
      expanded: 'C:\\work\\src\\a.ts',
      absolute: 'C:\\work\\src\\a.ts',
      inside: true,
    });
    expect(expectPath(await p.resolveFile('src\\b.ts', 'read'))).toMatchObject({
      absolute: 'C:\\work\\src\\b.ts',
      inside: true,
    });
    expect(expectPath(await p.resolveFile('/cygdrive/d/data/x.csv', 'read'))).toMatchObject({
      absolute: 'D:\\data\\x.csv',
      inside: false,
    });
    expect(expectPath(await p.resolveFile('c:\\WORK\\x.ts', 'read')).inside).toBe(true);
    expect(expectPath(await p.resolveFile('~\\x.ts', 'read')).absolute).toBe('C:\\Users\\me\\x.ts');
    expectError(await p.resolveFile('C:foo.txt', 'read'), '`C:foo.txt` is not a valid path.', 'Invalid path');
    expectError(
      await p.resolveFile('..\\other\\x.ts', 'edit'),
      '`..\\other\\x.ts` is not an absolute path. You must provide an absolute path to edit a file outside the working directory.',
      'Invalid path',
    );
    expectError(
      await p.resolveFile('.git\\config', 'read'),
      '`.git\\config` is denied by the workspace policy.',
      'Access denied',
    );
  });
});

describe('PathPolicy.resolveFile: workspace (docs/paths.md)', () => {
  it('words the relative-outside error with the verb', async ({ policy }) => {
    const p = policy();
    for (const verb of ['read', 'write', 'edit'] as const) {
      expectError(
        await p.resolveFile('../outside/secret.txt', verb),
        `\`../outside/secret.txt\` is not an absolute path. You must provide an absolute path to ${verb} a file outside the working directory.`,
        'Invalid path',
      );
    }
  });

  it('uses the ~-expanded path in the relative-outside message only when it stays relative', async ({
    policy,
  }) => {
    // `~user` is relative; a leading `~/` becomes absolute and is therefore allowed outside
    expectError(
      await policy().resolveFile('~bob/../../x', 'read'),
      '`~bob/../../x` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      'Invalid path',
    );
  });

  it('allows absolute paths outside the workspace, marked as outside', async ({ workspace, policy }) => {
    const target = workspace.outside('secret.txt');
    expect(expectPath(await policy().resolveFile(target, 'write'))).toEqual({
      input: target,
      expanded: target,
      absolute: target,
      real: target,
      inside: false,
    });
  });

  it("refuses absolute outside paths when outside is 'deny'", async ({ workspace, policy }) => {
    const target = workspace.outside('secret.txt');
    expectError(
      await policy({ outside: 'deny' }).resolveFile(target, 'read'),
      `\`${target}\` is outside the workspace.`,
      'Outside workspace',
    );
    expectError(
      await policy({ outside: 'deny' }).resolveFile('~/x', 'read'),
      `\`${path.join(workspace.root, 'home', 'x')}\` is outside the workspace.`,
      'Outside workspace',
    );
  });

  it("refuses relative outside paths as outside when outside is 'deny', for every verb", async ({
    workspace,
    policy,
  }) => {
    // The relative-path sentence would send the model to retry with the absolute path, refused again under 'deny'.
    await workspace.symlink('escape', workspace.outsideDir);
    const p = policy({ outside: 'deny' });
    for (const verb of ['read', 'write', 'edit'] as const) {
      for (const input of ['../outside/secret.txt', 'escape/secret.txt', 'escape/new.txt', '~bob/../../x']) {
        expectError(
          await p.resolveFile(input, verb),
          `\`${input}\` is outside the workspace.`,
          'Outside workspace',
        );
      }
    }
  });

  it('treats a symlink inside the workspace that points outside as outside', async ({
    workspace,
    policy,
  }) => {
    await workspace.symlink('escape', workspace.outsideDir);
    await workspace.symlink('file-escape.txt', workspace.outside('secret.txt'));
    const p = policy();
    expectError(
      await p.resolveFile('escape/secret.txt', 'read'),
      '`escape/secret.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      'Invalid path',
    );
    expectError(
      await p.resolveFile('escape/new-file.txt', 'write'),
      '`escape/new-file.txt` is not an absolute path. You must provide an absolute path to write a file outside the working directory.',
      'Invalid path',
    );
    const viaFileLink = expectPath(await p.resolveFile(workspace.at('file-escape.txt'), 'edit'));
    expect(viaFileLink).toMatchObject({ real: workspace.outside('secret.txt'), inside: false });
    expectError(
      await policy({ outside: 'deny' }).resolveFile(
        path.join(workspace.workDir, 'escape', 'secret.txt'),
        'read',
      ),
      `\`${path.join(workspace.workDir, 'escape', 'secret.txt')}\` is outside the workspace.`,
      'Outside workspace',
    );
  });

  it('treats a dangling symlink inside that points outside as outside', async ({ workspace, policy }) => {
    await workspace.symlink('dangling.txt', workspace.outside('created-later.txt'));
    const resolved = expectPath(await policy().resolveFile(workspace.at('dangling.txt'), 'write'));
    expect(resolved).toMatchObject({ real: workspace.outside('created-later.txt'), inside: false });
  });

  it('still contains files when workDir itself is given through a symlink', async ({ workspace }) => {
    const link = path.join(workspace.root, 'work-link');
    await fs.symlink(workspace.workDir, link);
    const p = new PathPolicy(
      { workDir: link, additionalDirs: [], outside: 'deny', deny: [], sensitive: [] },
      { fs: localFileSystem, homeDir: workspace.root },
    );
    expect(expectPath(await p.resolveFile('a.txt', 'read'))).toEqual({
      input: 'a.txt',
      expanded: 'a.txt',
      absolute: path.join(link, 'a.txt'),
      real: workspace.at('a.txt'),
      inside: true,
    });
    expect(expectPath(await p.resolveFile(workspace.at('a.txt'), 'read')).inside).toBe(true);
    expect(expectPath(await p.resolveFile(path.join(link, 'new', 'b.txt'), 'write')).inside).toBe(true);
    expect(await p.workspaceRoots()).toEqual([workspace.workDir]);
  });

  it('is not fooled by a sibling directory sharing the prefix', async ({ workspace, policy }) => {
    const evil = path.join(workspace.root, 'work-evil');
    await fs.mkdir(evil);
    await fs.writeFile(path.join(evil, 'x.txt'), 'x');
    const p = policy({ outside: 'deny' });
    expectError(
      await p.resolveFile('../work-evil/x.txt', 'read'),
      '`../work-evil/x.txt` is outside the workspace.',
      'Outside workspace',
    );
    expectError(
      await policy().resolveFile('../work-evil/x.txt', 'read'),
      '`../work-evil/x.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      'Invalid path',
    );
    expectError(
      await p.resolveFile(path.join(evil, 'x.txt'), 'read'),
      `\`${path.join(evil, 'x.txt')}\` is outside the workspace.`,
      'Outside workspace',
    );
  });

  it('counts the workDir itself and `..` that comes back inside', async ({ workspace, policy }) => {
    const p = policy({ outside: 'deny' });
    expect(expectPath(await p.resolveFile('.', 'read'))).toMatchObject({
      real: workspace.workDir,
      inside: true,
    });
    expect(expectPath(await p.resolveFile('../work/a.txt', 'read'))).toMatchObject({
      real: workspace.at('a.txt'),
      inside: true,
    });
  });

  it('resolves missing tails under the real path', async ({ workspace, policy }) => {
    await fs.mkdir(workspace.outside('real-src'));
    await fs.symlink(workspace.outside('real-src'), path.join(workspace.root, 'src-link'));
    const p = policy({ additionalDirs: [path.join(workspace.root, 'src-link')] });
    expect(expectPath(await p.resolveFile('new/deeper/file.ts', 'write'))).toMatchObject({
      real: path.join(workspace.workDir, 'new', 'deeper', 'file.ts'),
      inside: true,
    });
    expect(
      expectPath(await p.resolveFile(path.join(workspace.outsideDir, 'real-src', 'gen', 'x.ts'), 'write')),
    ).toMatchObject({
      real: path.join(workspace.outsideDir, 'real-src', 'gen', 'x.ts'),
      inside: true,
    });
  });

  it('handles a symlink loop and a file used as a directory without failing', async ({
    workspace,
    policy,
  }) => {
    await workspace.symlink('loop1', workspace.at('loop2'));
    await workspace.symlink('loop2', workspace.at('loop1'));
    expect(expectPath(await policy().resolveFile('loop1/x.txt', 'read')).inside).toBe(true);
    expect(expectPath(await policy().resolveFile('a.txt/child', 'read'))).toMatchObject({
      real: path.join(workspace.workDir, 'a.txt', 'child'),
      inside: true,
    });
  });

  it('counts additionalDirs pushed after creation, relative entries resolved against workDir', async ({
    workspace,
    policy,
  }) => {
    const additionalDirs: string[] = [];
    const p = policy({ additionalDirs, outside: 'deny' });
    const target = workspace.outside('secret.txt');
    expect(expectPath(await policy({ additionalDirs }).resolveFile(target, 'read')).inside).toBe(false);
    expectError(
      await p.resolveFile(target, 'read'),
      `\`${target}\` is outside the workspace.`,
      'Outside workspace',
    );
    additionalDirs.push('../outside');
    expect(expectPath(await p.resolveFile(target, 'read')).inside).toBe(true);
    expect(expectPath(await p.resolveFile('../outside/secret.txt', 'read')).inside).toBe(true);
    expect(await p.workspaceRoots()).toEqual([workspace.workDir, workspace.outsideDir]);
    additionalDirs.pop();
    expectError(
      await p.resolveFile(target, 'read'),
      `\`${target}\` is outside the workspace.`,
      'Outside workspace',
    );
  });

  it('refuses paths matching a deny glob, on the real path or the path as given', async ({
    workspace,
    policy,
  }) => {
    await workspace.mkdir('.git');
    await fs.writeFile(path.join(workspace.workDir, '.git', 'config'), '');
    await workspace.symlink('innocent.txt', path.join(workspace.workDir, '.git', 'config'));
    await workspace.symlink('blocked-name', workspace.at('a.txt'));
    const p = policy({ deny: ['**/.git/**', '**/blocked-name', 'private/**'] });
    expectError(
      await p.resolveFile('.git/config', 'read'),
      '`.git/config` is denied by the workspace policy.',
      'Access denied',
    );
    expectError(
      await p.resolveFile('.git/new-file', 'write'),
      '`.git/new-file` is denied by the workspace policy.',
      'Access denied',
    );
    expectError(
      await p.resolveFile('innocent.txt', 'read'),
      '`innocent.txt` is denied by the workspace policy.',
      'Access denied',
    );
    expectError(
      await p.resolveFile(workspace.at('blocked-name'), 'read'),
      `\`${workspace.at('blocked-name')}\` is denied by the workspace policy.`,
      'Access denied',
    );
    expectError(
      await p.resolveFile('private/key.txt', 'read'),
      '`private/key.txt` is denied by the workspace policy.',
      'Access denied',
    );
    expectPath(await p.resolveFile('a.txt', 'read'));
    expectPath(await p.resolveFile('.gitignore', 'read'));
    expectPath(await p.resolveFile('not-private/key.txt', 'read'));
  });

  it('matches workspace-relative deny globs when workDir is given through a symlink', async ({
    workspace,
  }) => {
    const link = path.join(workspace.root, 'work-link');
    await fs.symlink(workspace.workDir, link);
    await workspace.symlink('alias-name', workspace.at('a.txt'));
    const p = new PathPolicy(
      {
        workDir: link,
        additionalDirs: [],
        outside: 'allow',
        deny: ['secrets/**', 'alias-name'],
        sensitive: [],
      },
      { fs: localFileSystem, homeDir: workspace.root },
    );
    expectError(
      await p.resolveFile('secrets/key.txt', 'read'),
      '`secrets/key.txt` is denied by the workspace policy.',
      'Access denied',
    );
    expectError(
      await p.resolveFile('alias-name', 'read'),
      '`alias-name` is denied by the workspace policy.',
      'Access denied',
    );
    expectPath(await p.resolveFile('a.txt', 'read'));
    expect(p.isDenied(path.join(link, 'secrets', 'key.txt'))).toBe(true);
    await p.workspaceRoots();
    expect(p.isDenied(path.join(workspace.workDir, 'secrets', 'key.txt'))).toBe(true);
    expect(p.isDenied(path.join(workspace.workDir, 'public', 'key.txt'))).toBe(false);
  });

  it('applies deny globs to outside absolute paths too', async ({ workspace, policy }) => {
    const target = workspace.outside('secret.txt');
    expectError(
      await policy({ deny: ['**/secret.txt'] }).resolveFile(target, 'read'),
      `\`${target}\` is denied by the workspace policy.`,
      'Access denied',
    );
  });

  it("checks in the documented order: outside under 'deny', then relative-outside, then deny", async ({
    workspace,
    policy,
  }) => {
    const p = policy({ outside: 'deny', deny: ['**'] });
    expectError(
      await p.resolveFile('../outside/secret.txt', 'read'),
      '`../outside/secret.txt` is outside the workspace.',
      'Outside workspace',
    );
    expectError(
      await policy({ deny: ['**'] }).resolveFile('../outside/secret.txt', 'read'),
      '`../outside/secret.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
      'Invalid path',
    );
    const target = workspace.outside('secret.txt');
    expectError(
      await p.resolveFile(target, 'read'),
      `\`${target}\` is outside the workspace.`,
      'Outside workspace',
    );
    expectError(
      await p.resolveFile('a.txt', 'read'),
      '`a.txt` is denied by the workspace policy.',
      'Access denied',
    );
  });
});

describe("PathPolicy: the workspace directories' real paths (docs/paths.md#the-workspace)", () => {
  it('resolves them once while their list is unchanged, and again when it changes', async ({ workspace }) => {
    const resolved: string[] = [];
    const counting = {
      ...localFileSystem,
      realpath: (filePath: string) => {
        resolved.push(filePath);
        return localFileSystem.realpath(filePath);
      },
    };
    const additionalDirs: string[] = [];
    const p = new PathPolicy(
      { workDir: workspace.workDir, additionalDirs, outside: 'deny', deny: [], sensitive: [] },
      { fs: counting, homeDir: workspace.root },
    );
    await workspace.symlink('escape', workspace.outsideDir);
    expectPath(await p.resolveFile('a.txt', 'read'));
    expectPath(await p.resolveFile('a.txt', 'edit'));
    // A link inside that leads outside is judged on its real path, kept roots or not.
    expectError(
      await p.resolveFile('escape/secret.txt', 'read'),
      '`escape/secret.txt` is outside the workspace.',
      'Outside workspace',
    );
    expectPath(await p.resolveFile('a.txt', 'read'));
    const rootResolutions = () => resolved.filter((each) => each === workspace.workDir).length;
    // Once at the first call, once more for the path found outside the kept roots.
    expect(rootResolutions()).toBe(2);
    additionalDirs.push(workspace.outsideDir);
    expectPath(await p.resolveFile('escape/secret.txt', 'read'));
    expect(rootResolutions()).toBe(3);
    expect(resolved.filter((each) => each === workspace.outsideDir)).toHaveLength(1);
  });

  it('follows a workspace directory that is a link to where it points now, once a path lies outside the kept one', async ({
    workspace,
  }) => {
    const first = path.join(workspace.root, 'first');
    const second = path.join(workspace.root, 'second');
    await workspace.write(path.join(first, 'one.txt'), '1');
    await workspace.write(path.join(second, 'two.txt'), '2');
    const link = path.join(workspace.root, 'current');
    await fs.symlink(first, link);
    const p = new PathPolicy(
      { workDir: link, additionalDirs: [], outside: 'deny', deny: [], sensitive: [] },
      { fs: localFileSystem, homeDir: workspace.root },
    );
    expect(expectPath(await p.resolveFile('one.txt', 'read')).real).toBe(path.join(first, 'one.txt'));
    await fs.rm(link);
    await fs.symlink(second, link);
    // The path is resolved afresh: it lies in the directory the link names now, which is the workspace from then on.
    expect(expectPath(await p.resolveFile('two.txt', 'read')).real).toBe(path.join(second, 'two.txt'));
    expect(await p.workspaceRoots()).toEqual([second]);
    const old = path.join(first, 'one.txt');
    expectError(
      await p.resolveFile(old, 'read'),
      `\`${old}\` is outside the workspace.`,
      'Outside workspace',
    );
    expect(await p.isInsideWorkspace(old)).toBe(false);
  });
});

describe('PathPolicy.resolveSearchPath', () => {
  it('resolves inside paths like a read path', async ({ workspace, policy }) => {
    const p = policy();
    expect(await p.resolveSearchPath('.', 'Path outside workspace')).toEqual({
      ok: true,
      path: { input: '.', expanded: '.', absolute: workspace.workDir, real: workspace.workDir, inside: true },
    });
  });

  it('refuses empty, outside (with the brief of the tool) and denied paths with the documented messages', async ({
    workspace,
    policy,
  }) => {
    await workspace.symlink('escape', workspace.outsideDir);
    const p = policy({ deny: ['**/node_modules/**'] });
    const brief = 'Directory outside workspace';
    expectError(await p.resolveSearchPath('', brief), 'File path cannot be empty.', 'Empty file path');
    for (const input of [workspace.outsideDir, '..', 'escape']) {
      expectError(
        await p.resolveSearchPath(input, brief),
        `\`${input}\` is outside the workspace. You can only search within the working directory and additional directories.`,
        brief,
      );
    }
    expectError(
      await p.resolveSearchPath('node_modules/pkg', brief),
      '`node_modules/pkg` is denied by the workspace policy.',
      'Access denied',
    );
  });
});

describe('PathPolicy helpers', () => {
  it('isInsideWorkspace compares real paths component-wise', async ({ workspace, policy }) => {
    const p = policy({ additionalDirs: [workspace.outsideDir] });
    expect(await p.isInsideWorkspace(workspace.at('x'))).toBe(true);
    expect(await p.isInsideWorkspace(workspace.outside('y'))).toBe(true);
    expect(await p.isInsideWorkspace(`${workspace.workDir}-evil`)).toBe(false);
    expect(await p.isInsideWorkspace(workspace.root)).toBe(false);
  });

  it('isDenied matches absolute and workspace-relative forms', ({ workspace, policy }) => {
    const p = policy({ deny: ['**/.git/**', 'build/**'] });
    expect(p.isDenied(path.join(workspace.workDir, '.git', 'HEAD'))).toBe(true);
    expect(p.isDenied(path.join(workspace.workDir, 'build', 'out.js'))).toBe(true);
    expect(p.isDenied(path.join(workspace.outsideDir, 'build', 'out.js'))).toBe(false);
    expect(p.isDenied(path.join(workspace.workDir, 'src', 'build.ts'))).toBe(false);
    expect(policy().isDenied(path.join(workspace.workDir, '.git', 'HEAD'))).toBe(false);
  });

  it('isSensitive adds the runtime patterns to the built-in ones', async ({ workspace, policy }) => {
    const p = policy({ sensitive: ['*.pem'] });
    expect(await p.isSensitive(workspace.at('.env'))).toBe(true);
    expect(await p.isSensitive(workspace.at('tls.pem'))).toBe(true);
    expect(await p.isSensitive(workspace.at('.env.example'))).toBe(false);
    expect(await policy().isSensitive(workspace.at('tls.pem'))).toBe(false);
  });

  it('isSensitive on a resolved path checks both the given name and the real target', async ({
    workspace,
    policy,
  }) => {
    await workspace.write('.env', 'TOKEN=1');
    await workspace.symlink('notes.txt', workspace.at('.env'));
    await workspace.symlink('id_rsa', workspace.at('a.txt'));
    const p = policy();
    expect(await p.isSensitive(expectPath(await p.resolveFile('notes.txt', 'read')))).toBe(true);
    expect(await p.isSensitive(expectPath(await p.resolveFile('id_rsa', 'read')))).toBe(true);
    expect(await p.isSensitive(expectPath(await p.resolveFile('a.txt', 'read')))).toBe(false);
  });
});
