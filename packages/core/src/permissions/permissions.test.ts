import { promises as fs } from 'node:fs';
import path from 'node:path';
import { recordingApproval, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { SessionApproval } from '../approval/approval.js';
import { FileActions } from '../approval/file-actions.js';
import type { FileSystem } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';
import type { PermissionRuleInput } from './permission-rule.js';
import { z } from 'zod';
import { openFileToRead } from '../path/open-file-to-read.js';
import { toolOk, type ToolReturnValue } from '../result/tool-result.js';
import { CallableTool } from '../tool/callable-tool.js';
import { applyFileChange } from '../write/apply-file-change.js';
import { missingDirectories } from '../write/missing-directories.js';
import type { ToolAccess } from './permission-rule.js';
import { applyFileSet, type FileSetEntry } from '../write/apply-file-set.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { createRuntime } from '../runtime/runtime.js';
import { appendThroughChange } from '../write/__fixtures__/append-change.js';

const readParams = z.object({ path: z.string().describe('The file.') });
const writeParams = z.object({
  path: z.string().describe('The file.'),
  content: z.string().describe('Its text.'),
});

/** A reading tool as a contributor writes one: declares `read`, opens the file through `openFileToRead`. */
class ProbeRead extends CallableTool<typeof readParams> {
  readonly name: string = 'ProbeRead';
  readonly description = 'Reads a file.';
  readonly params = readParams;
  protected readonly failureBrief = 'Probe failed';
  protected override readonly pathParameters = ['path'];
  override readonly access: ToolAccess | undefined = 'read';

  constructor(private readonly runtime: ToolRuntime) {
    super(runtime);
  }

  protected async execute(params: z.output<typeof readParams>): Promise<ToolReturnValue> {
    const opened = await openFileToRead(this.runtime, params.path);
    if (!opened.ok) return opened.error;
    await opened.file.handle.close();
    return toolOk({ output: await fs.readFile(opened.file.path.real, 'utf8') });
  }
}

/**
 * A writing tool as a contributor writes one: declares `edit`, resolves its path through the policy and writes through
 * `applyFileChange` (read-before-write when the runtime asks for it). `access` and `name` may be changed by a subclass.
 */
class ProbeWrite extends CallableTool<typeof writeParams> {
  readonly name: string = 'ProbeWrite';
  readonly description = 'Writes a file.';
  readonly params = writeParams;
  protected readonly failureBrief = 'Probe failed';
  protected override readonly pathParameters = ['path'];
  override readonly access: ToolAccess | undefined = 'edit';

  constructor(private readonly runtime: ToolRuntime) {
    super(runtime);
  }

  protected async execute(params: z.output<typeof writeParams>): Promise<ToolReturnValue> {
    const resolved = await this.runtime.paths.resolveFile(params.path, 'write');
    if (!resolved.ok) return resolved.error;
    let oldBytes: Uint8Array | null = null;
    try {
      oldBytes = await fs.readFile(resolved.path.real);
    } catch {
      // a new file
    }
    const outcome = await applyFileChange(this.runtime, {
      sender: this.name,
      verb: 'Write',
      path: resolved.path,
      oldBytes,
      newBytes: new TextEncoder().encode(params.content),
      oldText: oldBytes ? new TextDecoder().decode(oldBytes) : '',
      newText: params.content,
      checkReadState: this.runtime.readBeforeWrite,
      createDirectories: await missingDirectories(this.runtime.fs, resolved.path.real),
    });
    if (outcome.kind === 'refused') return outcome.result;
    return toolOk({ message: 'Written.' });
  }
}

const DENIED = 'Denied by permission rule';

function deniedMessage(shown: string, rule: string): string {
  return `\`${shown}\` is denied by the permission rule \`${rule}\`.`;
}

/** The kit's test, with `setUp`: a runtime with `permissions` (and a recording approval), and the two probe tools. */
const it = test.extend('setUp', ({ workspace }) => {
  return (permissions: PermissionRuleInput[], options: Parameters<TempWorkspace['runtime']>[0] = {}) => {
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval, readBeforeWrite: false, permissions, ...options });
    return { runtime, approval, read: new ProbeRead(runtime), write: new ProbeWrite(runtime) };
  };
});

describe('createRuntime({ permissions })', () => {
  test('keeps the rules as written, objects in their string form', ({ workspace }) => {
    const runtime = workspace.runtime({
      permissions: [
        'allow Edit(src/**)',
        { effect: 'deny', tools: ['WriteFile', 'ApplyPatch'], paths: ['*.lock'] },
      ],
    });
    expect(runtime.permissions.rules).toEqual(['allow Edit(src/**)', 'deny WriteFile, ApplyPatch(*.lock)']);
    expect(workspace.runtime().permissions.isEmpty).toBe(true);
  });

  test('throws on an invalid rule, quoting it', () => {
    const approval = recordingApproval();
    expect(() =>
      createRuntime({ workDir: '/tmp', approval, permissions: ['allow Edit(src/**)', 'allow Edit()'] }),
    ).toThrow(
      new Error(
        'createRuntime: invalid permission rule `allow Edit()`: the parentheses hold no glob: leave them out to match every path.',
      ),
    );
    expect(() =>
      createRuntime({
        workDir: '/tmp',
        approval,
        permissions: [{ effect: 'always', tools: ['Edit'] } as never],
      }),
    ).toThrow(
      'createRuntime: invalid permission rule `{"effect":"always","tools":["Edit"]}`: `effect` must be allow, ask or deny.',
    );
    expect(() => createRuntime({ workDir: '/tmp', approval, permissions: 'allow Edit' as never })).toThrow(
      'createRuntime: permissions must be a list of rules.',
    );
  });
});

describe('a change the rules decide', () => {
  it('allows without asking, and tells the approval which rule did', async ({ workspace, setUp }) => {
    const { approval, write } = setUp(['allow Edit(src/**)']);
    const result = await write.call({ path: 'src/a.ts', content: 'a\n' });
    expect(result.isError).toBe(false);
    expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('a\n');
    expect(approval.requests).toEqual([]);
    expect(approval.decisions).toMatchObject([
      {
        effect: 'allow',
        rule: 'allow Edit(src/**)',
        request: { sender: 'ProbeWrite', path: workspace.at('src/a.ts') },
      },
    ]);
    // Anything else asks as before, with no rule named.
    await write.call({ path: 'lib/a.ts', content: 'a\n' });
    expect(approval.requests.map((request) => [request.path, request.rule])).toEqual([
      [workspace.at('lib/a.ts'), undefined],
    ]);
  });

  it('refuses a denied write before the tool runs, with the rule as written', async ({
    workspace,
    setUp,
  }) => {
    const { approval, write } = setUp(['allow Edit(**)', 'deny   Edit(**/*.lock)']);
    const result = await write.call({ path: 'sub/pnpm.lock', content: 'x' });
    expect(result).toEqual({
      isError: true,
      output: '',
      message: deniedMessage('sub/pnpm.lock', 'deny   Edit(**/*.lock)'),
      brief: DENIED,
      display: [{ type: 'brief', text: DENIED }],
    });
    await expect(fs.stat(workspace.at('sub'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(approval.requests).toEqual([]);
  });

  it('refuses at the approval a change whose tool named no path: the approval is told', async ({
    workspace,
    setUp,
  }) => {
    const { runtime, approval } = setUp([{ effect: 'deny', tools: ['Edit'], paths: ['config/'] }]);
    const file = await workspace.write('config/app.ini', 'a=1\n');
    const outcome = await appendThroughChange(runtime, 'config/app.ini', 'b=2\n');
    expect(outcome).toEqual({
      kind: 'refused',
      result: expect.objectContaining({
        message: deniedMessage('config/app.ini', 'deny Edit(config/)'),
        brief: DENIED,
      }),
    });
    expect(await fs.readFile(file, 'utf8')).toBe('a=1\n');
    expect(approval.requests).toEqual([]);
    expect(approval.decisions).toMatchObject([
      { effect: 'deny', rule: 'deny Edit(config/)', request: { path: file } },
    ]);
  });

  it('asks on an ask rule even after "approve for session", naming the rule', async ({ workspace }) => {
    const asked: Array<[string, string | undefined]> = [];
    const approval = new SessionApproval(async (request) => {
      asked.push([path.relative(workspace.workDir, request.path), request.rule]);
      return { kind: 'approve_for_session' };
    });
    const runtime = workspace.runtime({
      approval,
      readBeforeWrite: false,
      permissions: ['ask WriteFile, ProbeWrite(.github/**)'],
    });
    const write = new ProbeWrite(runtime);
    await write.call({ path: 'a.txt', content: 'a' });
    await write.call({ path: 'b.txt', content: 'b' });
    await write.call({ path: '.github/workflows/ci.yml', content: 'on: push' });
    await write.call({ path: '.github/CODEOWNERS', content: '*' });
    expect(asked).toEqual([
      ['a.txt', undefined],
      ['.github/workflows/ci.yml', 'ask WriteFile, ProbeWrite(.github/**)'],
      ['.github/CODEOWNERS', 'ask WriteFile, ProbeWrite(.github/**)'],
    ]);
  });

  it('judges deny before ask before allow, whatever order the rules come in', async ({
    workspace,
    setUp,
  }) => {
    const rules = [
      'allow Edit(**)',
      'ask Edit(src/generated/**)',
      'deny ProbeWrite(src/generated/secret.ts)',
    ];
    for (const [round, order] of [rules, [...rules].reverse()].entries()) {
      const { approval, write } = setUp(order);
      const content = `round ${round}`;
      expect((await write.call({ path: 'src/generated/secret.ts', content })).brief).toBe(DENIED);
      await write.call({ path: 'src/generated/types.ts', content });
      await write.call({ path: 'src/index.ts', content });
      expect(
        approval.requests.map((request) => [path.relative(workspace.workDir, request.path), request.rule]),
      ).toEqual([['src/generated/types.ts', 'ask Edit(src/generated/**)']]);
      expect(approval.decisions.map((decision) => decision.effect)).toEqual(['allow']);
    }
  });

  it('matches a tool by its name, or by the group its declared access puts it in', async ({ setUp }) => {
    class Undeclared extends ProbeWrite {
      override readonly name = 'Undeclared';
      override readonly access = undefined;
    }
    class ReadingWriter extends ProbeWrite {
      override readonly name = 'ReadingWriter';
      override readonly access = 'read' as const;
    }
    const { runtime, write } = setUp(['deny Read(docs/**)', 'deny Undeclared(notes/**)']);
    // A Read rule does not touch a tool that declares `edit`.
    expect((await write.call({ path: 'docs/a.md', content: 'x' })).isError).toBe(false);
    // A tool that declares nothing is matched by its name only.
    expect((await new Undeclared(runtime).call({ path: 'docs/b.md', content: 'x' })).isError).toBe(false);
    expect((await new Undeclared(runtime).call({ path: 'notes/b.md', content: 'x' })).brief).toBe(DENIED);
    // Its declaration decides before it runs; what it then asks approval for is an edit.
    expect((await new ReadingWriter(runtime).call({ path: 'docs/c.md', content: 'x' })).brief).toBe(DENIED);
    const { runtime: editRules } = setUp(['deny Edit(docs/**)']);
    expect((await new ReadingWriter(editRules).call({ path: 'docs/c.md', content: 'x' })).message).toBe(
      deniedMessage('docs/c.md', 'deny Edit(docs/**)'),
    );
  });
});

describe('rules on real paths', () => {
  it('judges a symlink by where it leads', async ({ workspace, setUp }) => {
    await workspace.write('src/a.ts', 'a');
    await workspace.write('config/prod.ini', 'p');
    await workspace.symlink('src/escape.ini', '../config/prod.ini');
    await workspace.symlink('alias.ts', 'src/a.ts');
    const allowSrc = setUp(['allow Edit(src/**)']);
    // A link inside src/ to a file outside it does not gain src/'s allow...
    await allowSrc.write.call({ path: 'src/escape.ini', content: 'q' });
    expect(allowSrc.approval.requests.map((request) => request.path)).toEqual([
      workspace.at('config/prod.ini'),
    ]);
    // ...and a link outside src/ to a file in it is src/'s.
    await allowSrc.write.call({ path: 'alias.ts', content: 'b' });
    expect(allowSrc.approval.requests).toHaveLength(1);
    const denySrc = setUp(['deny Edit(src/**)']);
    expect((await denySrc.write.call({ path: 'alias.ts', content: 'c' })).message).toBe(
      deniedMessage('alias.ts', 'deny Edit(src/**)'),
    );
    expect((await denySrc.write.call({ path: 'src/escape.ini', content: 'r' })).isError).toBe(false);
    expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('b');
  });

  it('normalizes `..`, and quotes the path as the model gave it', async ({ workspace, setUp }) => {
    const { approval, write } = setUp(['allow Edit(src/**)', 'deny Edit(lib/**)']);
    await write.call({ path: 'lib/../src/a.ts', content: 'a' });
    expect(approval.requests).toEqual([]);
    expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('a');
    expect((await write.call({ path: 'src/../lib/a.ts', content: 'a' })).message).toBe(
      deniedMessage('src/../lib/a.ts', 'deny Edit(lib/**)'),
    );
  });

  it('judges a path given as absolute inside the workspace by the relative globs, as a relative one', async ({
    workspace,
    setUp,
  }) => {
    const { approval, write } = setUp(['allow Edit(src/**)', 'deny Edit(lib/**)']);
    await write.call({ path: workspace.at('src/a.ts'), content: 'a' });
    expect(approval.requests).toEqual([]);
    expect((await write.call({ path: workspace.at('lib/a.ts'), content: 'a' })).message).toBe(
      deniedMessage(workspace.at('lib/a.ts'), 'deny Edit(lib/**)'),
    );
    // An absolute glob naming the workspace's own files matches them, whichever way the model names them.
    const absolute = setUp([`deny Edit(${workspace.workDir}/src/)`]);
    expect((await absolute.write.call({ path: 'src/a.ts', content: 'b' })).brief).toBe(DENIED);
    expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('a');
  });

  it('judges a read through a symlink by where it leads', async ({ workspace, setUp }) => {
    await workspace.write('private/plan.md', 'plan');
    await workspace.write('docs/a.md', 'doc');
    await workspace.symlink('plan-link.md', 'private/plan.md');
    await workspace.symlink('private/doc-link.md', '../docs/a.md');
    const { read } = setUp(['deny Read(private/)']);
    expect((await read.call({ path: 'plan-link.md' })).message).toBe(
      deniedMessage('plan-link.md', 'deny Read(private/)'),
    );
    expect((await read.call({ path: 'private/doc-link.md' })).output).toBe('doc');
  });

  it('matches files outside the workspace with absolute globs only', async ({ workspace, setUp }) => {
    const outside = workspace.outside('export/data.csv');
    const relative = setUp(['allow Edit(**)', 'deny Edit(*.csv)']);
    expect((await relative.write.call({ path: outside, content: 'x' })).isError).toBe(false);
    expect(relative.approval.requests.map((request) => request.action)).toEqual([FileActions.EDIT_OUTSIDE]);
    const absolute = setUp([`allow Edit(${workspace.outsideDir}/export/)`]);
    await absolute.write.call({ path: outside, content: 'y' });
    expect(absolute.approval.requests).toEqual([]);
    const everywhere = setUp(['deny ProbeWrite']);
    expect((await everywhere.write.call({ path: outside, content: 'z' })).message).toBe(
      deniedMessage(outside, 'deny ProbeWrite'),
    );
    expect(await fs.readFile(outside, 'utf8')).toBe('y');
  });

  it('matches relative globs from every workspace directory', async ({ workspace, setUp }) => {
    const extra = await workspace.mkdir(workspace.outside('extra'));
    const { write } = setUp(['deny Edit(build/**)'], { additionalDirs: [extra] });
    expect((await write.call({ path: path.join(extra, 'build/out.js'), content: 'x' })).brief).toBe(DENIED);
    expect((await write.call({ path: 'build/out.js', content: 'x' })).brief).toBe(DENIED);
  });

  // The Linux choice (docs/permissions.md#globs): names keep their case there, so a name in another case is another
  // file, and a glob written in one case does not match it.
  it.skipIf(process.platform === 'win32' || process.platform === 'darwin')(
    'on a disk that keeps case (Linux), matches a glob only in the case it is written in',
    async ({ workspace, setUp }) => {
      await workspace.write('src/a.ts', 'a');
      await workspace.write('deps/yarn.lock', 'v1');
      const { write, approval } = setUp(['allow Edit(src/**)', 'deny Edit(**/*.lock)']);
      // SRC/ is a directory of its own here: the allow of src/ does not cover it, so the change is asked.
      expect((await write.call({ path: 'SRC/a.ts', content: 'b' })).isError).toBe(false);
      // YARN.LOCK is not yarn.lock: not denied, asked.
      expect((await write.call({ path: 'deps/YARN.LOCK', content: 'x' })).isError).toBe(false);
      expect(approval.requests.map((request) => request.path)).toEqual([
        workspace.at('SRC/a.ts'),
        workspace.at('deps/YARN.LOCK'),
      ]);
      expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('a');
      expect(await fs.readFile(workspace.at('deps/yarn.lock'), 'utf8')).toBe('v1');
    },
  );

  it('meets the names a case-insensitive disk gives back', async ({ workspace, setUp }) => {
    await workspace.write('secrets/key.txt', 'k');
    await workspace.mkdir('src');
    const fsCaseless = caseInsensitive(localFileSystem);
    const denied = setUp(['deny Edit(secrets/**)'], { fs: fsCaseless });
    expect((await denied.write.call({ path: 'SECRETS/key.txt', content: 'x' })).message).toBe(
      deniedMessage('SECRETS/key.txt', 'deny Edit(secrets/**)'),
    );
    expect((await denied.write.call({ path: 'Secrets/new.txt', content: 'x' })).brief).toBe(DENIED);
    const allowed = setUp(['allow Edit(src/**)'], { fs: fsCaseless });
    await allowed.write.call({ path: 'SRC/new.ts', content: 'n' });
    expect(allowed.approval.requests).toEqual([]);
    expect(await fs.readFile(workspace.at('src/new.ts'), 'utf8')).toBe('n');
    expect(await fs.readFile(workspace.at('secrets/key.txt'), 'utf8')).toBe('k');
  });
});

describe('rules come after the path policy', () => {
  it('an allow opens no runtime deny glob, no sensitive file, and skips no read-before-write', async ({
    workspace,
    setUp,
  }) => {
    const { write } = setUp(['allow Edit(**)'], { deny: ['vault/**'], readBeforeWrite: true });
    expect((await write.call({ path: 'vault/a.txt', content: 'x' })).brief).toBe('Access denied');
    await workspace.write('notes.txt', 'old');
    expect((await write.call({ path: 'notes.txt', content: 'new' })).brief).toBe('File not read');
    expect(await fs.readFile(workspace.at('notes.txt'), 'utf8')).toBe('old');
    await workspace.write('.env', 'TOKEN=1');
    const { read } = setUp(['allow Read(**)']);
    expect((await read.call({ path: '.env' })).brief).toBe('Sensitive file');
  });

  it("a path the policy refuses gets the policy's answer, not the rule's", async ({ workspace, setUp }) => {
    const { write } = setUp(['deny Edit'], { outside: 'deny', deny: ['vault/**'] });
    expect((await write.call({ path: workspace.outside('a.txt'), content: 'x' })).brief).toBe(
      'Outside workspace',
    );
    expect((await write.call({ path: 'vault/a.txt', content: 'x' })).brief).toBe('Access denied');
    expect((await write.call({ path: '', content: 'x' })).brief).toBe('Empty file path');
    expect((await write.call({ path: 'a.txt', content: 'x' })).brief).toBe(DENIED);
  });
});

describe('reads', () => {
  it('a deny on a read tool refuses the read with the same brief and message', async ({
    workspace,
    setUp,
  }) => {
    await workspace.write('secrets/plan.md', 'plan');
    await workspace.write('docs/a.md', 'doc');
    const { read, write } = setUp(['deny Read(secrets)']);
    expect(await read.call({ path: 'secrets/plan.md' })).toEqual({
      isError: true,
      output: '',
      message: deniedMessage('secrets/plan.md', 'deny Read(secrets)'),
      brief: DENIED,
      display: [{ type: 'brief', text: DENIED }],
    });
    expect((await read.call({ path: 'docs/a.md' })).output).toBe('doc');
    // The files are denied to the Read group only.
    expect((await write.call({ path: 'secrets/plan.md', content: 'new plan' })).isError).toBe(false);
  });

  it('allow and ask change nothing for reads: they never ask', async ({ workspace, setUp }) => {
    await workspace.write('a.md', 'a');
    const { read, approval } = setUp(['ask Read(**)', 'allow Read(**)']);
    expect((await read.call({ path: 'a.md' })).output).toBe('a');
    expect([approval.requests, approval.decisions]).toEqual([[], []]);
  });
});

describe('a change to several files', () => {
  async function entry(runtime: ToolRuntime, input: string, newText: string): Promise<FileSetEntry> {
    const resolved = await runtime.paths.resolveFile(input, 'edit');
    if (!resolved.ok) throw new Error(resolved.error.message);
    const oldBytes = await fs.readFile(resolved.path.real).catch(() => null);
    return {
      kind: oldBytes === null ? 'add' : 'edit',
      path: resolved.path,
      oldBytes,
      newBytes: new TextEncoder().encode(newText),
      oldText: oldBytes?.toString() ?? '',
      newText,
    };
  }

  it('is refused whole when any file is denied, and allowed only when every file is', async ({
    workspace,
    setUp,
  }) => {
    const { runtime, approval } = setUp(['allow Edit(src/**)', 'deny Edit(*.lock)']);
    await workspace.write('src/a.ts', 'a');
    const change = async (...files: string[]) => ({
      sender: 'ProbePatch',
      description: 'Apply patch',
      entries: await Promise.all(files.map((file) => entry(runtime, file, `${file}!`))),
    });
    const denied = await applyFileSet(runtime, await change('src/a.ts', 'deps/x.lock'));
    expect(denied).toEqual({
      kind: 'refused',
      result: expect.objectContaining({
        message: deniedMessage('deps/x.lock', 'deny Edit(*.lock)'),
        brief: DENIED,
      }),
    });
    expect(await fs.readFile(workspace.at('src/a.ts'), 'utf8')).toBe('a');
    expect((await applyFileSet(runtime, await change('src/a.ts', 'src/b.ts'))).kind).toBe('written');
    expect(approval.requests).toEqual([]);
    expect((await applyFileSet(runtime, await change('src/a.ts', 'README.md'))).kind).toBe('written');
    expect(approval.requests).toHaveLength(1);
    expect(approval.requests[0]!.paths).toEqual([workspace.at('src/a.ts'), workspace.at('README.md')]);
    expect(approval.decisions.map((decision) => [decision.effect, decision.request.paths])).toEqual([
      ['deny', [workspace.at('src/a.ts'), workspace.at('deps/x.lock')]],
      ['allow', [workspace.at('src/a.ts'), workspace.at('src/b.ts')]],
    ]);
  });
});

/**
 * `base` as a case-insensitive disk (macOS, Windows) shows it: `realpath` gives back each existing name in the case it
 * has on disk, whatever case it was asked in. Everything else is the base's.
 */
function caseInsensitive(base: FileSystem): FileSystem {
  const onDisk = async (asked: string): Promise<string> => {
    const parts = asked.split('/').filter(Boolean);
    let current = '/';
    for (const part of parts) {
      const names = (await base.readdir(current)).map((entry) => entry.name);
      const found = names.find((name) => name.toLowerCase() === part.toLowerCase());
      if (found === undefined) throw Object.assign(new Error(`ENOENT: ${asked}`), { code: 'ENOENT' });
      current = path.posix.join(current, found);
    }
    return current;
  };
  return { ...base, realpath: async (asked) => base.realpath(await onDisk(asked)) };
}
