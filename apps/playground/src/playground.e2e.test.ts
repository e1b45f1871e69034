import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from '@kimi-tools/test-kit';
import { describe, expect, onTestFinished } from 'vitest';
import { runPlayground } from './__fixtures__/run-playground.js';

async function writeScript(dir: string, steps: unknown): Promise<string> {
  const file = path.join(dir, 'script.json');
  await fs.writeFile(file, JSON.stringify(steps, null, 2));
  return file;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

describe('the default session: colours and --keep', () => {
  it('colours the diff when FORCE_COLOR is set', async () => {
    const run = await runPlayground([], { NO_COLOR: undefined, FORCE_COLOR: '1' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('\u001b[31m-port = 8080\u001b[39m');
    expect(run.stdout).toContain('\u001b[32m+port = 3000\u001b[39m');
  });

  it('keeps the temporary directory with --keep, with the CRLF file edited byte-exactly', async () => {
    const run = await runPlayground(['--keep', '--no-undo']);
    expect(run.status).toBe(0);
    const kept = /Kept (\S+)/.exec(run.stdout)?.[1];
    expect(kept).toBeDefined();
    // The program made this directory, not the test: remove it when the test ends.
    onTestFinished(() => fs.rm(kept!, { recursive: true, force: true }));
    expect(await fs.readFile(path.join(kept!, 'project/config/app.ini'), 'latin1')).toBe(
      '; Settings of the to-do app (edited on Windows, so CRLF line endings)\r\n[server]\r\nhost = 127.0.0.1\r\n' +
        'port = 3000\r\n\r\n[storage]\r\nfile = data/todos.json\r\n',
    );
    expect(await exists(path.join(kept!, 'project/CHANGELOG.md'))).toBe(false);
    expect(await fs.readFile(path.join(kept!, 'outside/todo-export.md'), 'utf8')).toBe(
      '# To-do export\n\n- [x] Water the plants\n- [ ] Call the bakery\n',
    );
    // --no-undo: the README keeps its edit.
    expect(await fs.readFile(path.join(kept!, 'project/README.md'), 'utf8')).toContain(
      'It’s the demo project',
    );
  });
});

describe('custom scripts', () => {
  it('exits 1 and names the failed expectation', async ({ workspace }) => {
    const dir = workspace.root;
    const script = await writeScript(dir, [
      {
        name: 'Glob',
        arguments: { pattern: 'src/*.ts' },
        expect: { isError: false, message: 'Found 99 matches' },
      },
      { name: 'ReadFile', arguments: { path: 'src/todo.ts', n_lines: 2 }, expect: { isError: false } },
    ]);
    const run = await runPlayground(['--script', script]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('✗ 1 of 3 expectation checks failed:');
    expect(run.stdout).toContain(
      'step 1 (Glob): expected the message to contain "Found 99 matches", got "Found 3 matches for pattern `src/*.ts`."',
    );
  });

  it('applies --answers in order: a rejection leaves its file untouched and the model reads the feedback', async ({
    workspace,
  }) => {
    const dir = workspace.root;
    const workDir = workspace.workDir;
    await fs.writeFile(path.join(workDir, 'a.txt'), 'one\ntwo\nthree\n');
    await fs.writeFile(path.join(workDir, 'b.txt'), 'alpha\n');
    const script = await writeScript(dir, [
      { name: 'ReadFile', arguments: { path: 'a.txt' } },
      { name: 'ReadFile', arguments: { path: 'b.txt' } },
      { name: 'StrReplaceFile', arguments: { path: 'a.txt', edit: { old: 'two', new: 'TWO' } } },
      {
        name: 'StrReplaceFile',
        arguments: { path: 'b.txt', edit: { old: 'alpha', new: 'ALPHA' } },
        expect: {
          isError: true,
          brief: 'Rejected: use lower case',
          message: 'The tool call is rejected by the user. User feedback: use lower case',
          file: { path: 'b.txt', content: 'alpha\n' },
        },
      },
      { name: 'WriteFile', arguments: { path: 'c.txt', content: 'new\n' } },
      {
        name: 'WriteFile',
        arguments: { path: 'd.txt', content: 'also new\n' },
        expect: { approval: 'edit file' },
      },
    ]);
    const run = await runPlayground([
      '--workdir',
      workDir,
      '--script',
      script,
      '--no-undo',
      '--answers',
      'y,n:use lower case',
      '--answers',
      'a',
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('└ approve (--answers #1)');
    expect(run.stdout).toContain('└ reject, with feedback "use lower case" (--answers #2)');
    expect(run.stdout).toContain('└ approve for this session (--answers #3)');
    expect(run.stdout).toContain('└ approve ("edit file" was approved for this session)');
    expect(await fs.readFile(path.join(workDir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(await fs.readFile(path.join(workDir, 'b.txt'), 'utf8')).toBe('alpha\n');
    expect(await fs.readFile(path.join(workDir, 'c.txt'), 'utf8')).toBe('new\n');
    expect(await fs.readFile(path.join(workDir, 'd.txt'), 'utf8')).toBe('also new\n');
  });

  it('approves for the session one file or one directory: later changes there ask nothing, others are asked', async ({
    workspace,
  }) => {
    const write = (file: string, content: string, expect: Record<string, unknown> = {}) => ({
      name: 'WriteFile',
      arguments: { path: file, content },
      expect: { isError: false, approval: 'edit file', ...expect },
    });
    const script = await writeScript(workspace.root, [
      { ...write('docs/a.md', 'one\n'), answer: 'a:file' },
      write('docs/a.md', 'two\n', { file: { path: 'docs/a.md', content: 'two\n' } }),
      write('docs/b.md', 'b\n', { isError: true, brief: 'Rejected by user' }),
      write('src/x/c.ts', 'c\n'),
      write('src/x/y/d.ts', 'd\n', { file: { path: 'src/x/y/d.ts', content: 'd\n' } }),
      write('src/e.ts', 'e\n'),
    ]);
    // Without a terminal, a request no answer is left for is approved automatically: --answers holds two.
    const run = await runPlayground(['--script', script, '--answers', 'n,a:dir']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const answers = run.stdout.split('\n').filter((line) => line.startsWith('  └ '));
    expect(answers).toEqual([
      "  └ approve docs/a.md for this session (this step's scripted answer)",
      '  └ approve (this file was approved for this session)',
      '  └ reject (--answers #1)',
      '  └ approve everything under src/x/ for this session (--answers #2)',
      '  └ approve (its directory was approved for this session)',
      '  └ approve (auto: no terminal)',
    ]);
    // The sample's rules decide none of these, and each request says so.
    expect(run.stdout.split('  │ no permission rule decided this change\n')).toHaveLength(7);
  });

  it('shapes answers: some hunks by --answers, the proposal edited by $EDITOR, a real process', async ({
    workspace,
  }) => {
    const workDir = workspace.workDir;
    const lines = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
    await fs.writeFile(path.join(workDir, 'a.txt'), `${lines.join('\r\n')}\r\n`);
    // An editor that writes the user's change into the file it opens.
    const editor = path.join(workspace.outsideDir, 'editor.cjs');
    await fs.writeFile(
      editor,
      "const fs = require('fs'); const f = process.argv[2]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('proposed', 'edited by the user'));",
    );
    const script = await writeScript(workspace.outsideDir, [
      { name: 'ReadFile', arguments: { path: 'a.txt' } },
      {
        name: 'WriteFile',
        arguments: { path: 'a.txt', content: `${['LINE 1', ...lines.slice(1, 11), 'LINE 12'].join('\n')}\n` },
        expect: {
          isError: false,
          message: 'The user approved only part of this change: 1 of 2 hunks was written.',
          file: {
            path: 'a.txt',
            content: `${[...lines.slice(0, 11), 'LINE 12'].join('\r\n')}\r\n`,
          },
        },
      },
      {
        name: 'WriteFile',
        arguments: { path: 'b.txt', content: 'proposed\n' },
        expect: {
          isError: false,
          message: 'The user edited your proposal before accepting it',
          file: { path: 'b.txt', content: 'edited by the user\n' },
        },
      },
    ]);
    const run = await runPlayground(
      ['--workdir', workDir, '--script', script, '--no-undo', '--answers', 'h:h2,e'],
      {
        EDITOR: `"${process.execPath}" "${editor}"`,
        VISUAL: undefined,
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('  │ hunks: h1 a.txt:1, h2 a.txt:9');
    expect(run.stdout).toContain('└ approve hunks h2 (--answers #1)');
    expect(run.stdout).toContain('└ approve your edited version (--answers #2)');
  });

  it('works on a real directory with --workdir, in place, and undoes the last change at the end', async ({
    workspace,
  }) => {
    const workDir = workspace.workDir;
    await fs.writeFile(path.join(workDir, 'notes.txt'), 'first\r\nsecond\r\n');
    const script = await writeScript(workspace.outsideDir, [
      { name: 'ReadFile', arguments: { path: 'notes.txt' } },
      {
        name: 'StrReplaceFile',
        arguments: { path: 'notes.txt', edit: { old: 'second', new: 'second\nthird' } },
        expect: {
          isError: false,
          file: { path: '{{workdir}}/notes.txt', content: 'first\r\nsecond\r\nthird\r\n' },
        },
      },
      {
        name: 'WriteFile',
        arguments: { path: 'made/here.txt', content: 'x' },
        expect: { file: { path: 'made/here.txt', content: 'x' } },
      },
    ]);
    const run = await runPlayground(['--workdir', workDir, '--script', script]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`work dir: ${workDir} (your directory: changes are real)`);
    expect(run.stdout).toContain(
      'Undo of step 3: 1 file restored\n  made/here.txt removed (it did not exist before)\n',
    );
    // The directory itself was worked on, and is still there; the undo took the last change back: the file it made.
    expect(await fs.readFile(path.join(workDir, 'notes.txt'), 'latin1')).toBe('first\r\nsecond\r\nthird\r\n');
    expect(await exists(path.join(workDir, 'made/here.txt'))).toBe(false);
  });

  it('takes --permissions FILE: an ask rule asks even after "approve for session", naming the rule', async ({
    workspace,
  }) => {
    const rules = await workspace.write(workspace.outside('rules'), 'ask WriteFile(.github/**)\n');
    const script = await writeScript(workspace.root, [
      { name: 'WriteFile', arguments: { path: 'a.txt', content: 'a\n' }, expect: { approval: 'edit file' } },
      { name: 'WriteFile', arguments: { path: 'b.txt', content: 'b\n' }, expect: { approval: 'edit file' } },
      {
        name: 'WriteFile',
        arguments: { path: '.github/ci.yml', content: 'on: push\n' },
        expect: { isError: true, brief: 'Rejected by user', file: { path: '.github/ci.yml', exists: false } },
      },
    ]);
    const run = await runPlayground(['--script', script, '--permissions', rules, '--answers', 'a,n']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`rules:    1 rule from ${rules}\n`);
    expect(run.stdout).toContain('└ approve ("edit file" was approved for this session)');
    expect(run.stdout).toContain('  │ asked by the permission rule `ask WriteFile(.github/**)`\n');
    expect(run.stdout).toContain('└ reject (--answers #2)');
  });

  it("plays the README's example script", async ({ workspace }) => {
    const readme = await fs.readFile(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const example = /## Script format[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const script = path.join(workspace.root, 'example.json');
    await fs.writeFile(script, example!);
    const run = await runPlayground(['--script', script]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('✓ all 8 expectation checks passed');
  });

  it('turns a call with malformed JSON arguments or an unknown tool into an error result', async ({
    workspace,
  }) => {
    const dir = workspace.root;
    const script = await writeScript(dir, [
      {
        name: 'ReadFile',
        arguments: '{"path": "README.md",',
        expect: {
          isError: true,
          brief: 'Invalid arguments',
          message:
            'Error validating JSON arguments: arguments: Invalid input: expected object, received a string that is not valid JSON',
        },
      },
      { name: 'DeleteFile', arguments: {}, expect: { isError: true, brief: 'Tool not found' } },
    ]);
    const run = await runPlayground(['--script', script]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('What changed (file history)\n  nothing: no file was written.');
  });
});

describe('the command line', () => {
  it('explains everything with --help', async () => {
    const run = await runPlayground(['--help']);
    expect(run.status).toBe(0);
    for (const text of [
      '--script FILE',
      '--workdir DIR',
      '--answers LIST',
      '--yolo',
      'n:TEXT',
      '{{outside}}',
      '--permissions FILE',
      '--in-memory',
      '--ssh [USER@]HOST[:PORT] DIR',
      '"user"',
    ]) {
      expect(run.stdout).toContain(text);
    }
  });

  it('exits 2 with a usage message on a bad command line or script', async ({ workspace }) => {
    const unknown = await runPlayground(['--frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--frobnicate'");
    expect(unknown.stderr).toContain('Run with --help for usage.');

    const answers = await runPlayground(['--answers', 'y,maybe']);
    expect(answers.status).toBe(2);
    expect(answers.stderr).toContain('--answers: "maybe" is not an answer');

    const workdirAlone = await runPlayground(['--workdir', os.tmpdir()]);
    expect(workdirAlone.status).toBe(2);
    expect(workdirAlone.stderr).toContain('--workdir needs --script');

    const dir = workspace.root;
    const script = path.join(dir, 'bad.json');
    await fs.writeFile(script, JSON.stringify([{ name: 'ReadFile', answer: 'perhaps' }]));
    const badScript = await runPlayground(['--script', script]);
    expect(badScript.status).toBe(2);
    expect(badScript.stderr).toContain(
      'at 0.answer: an answer is y, a, a:file, a:dir, n, n:FEEDBACK, h:HUNKS or e',
    );

    const rules = path.join(dir, 'rules');
    await fs.writeFile(rules, '# rules\nallow Edit()\n');
    const badRules = await runPlayground(['--permissions', rules]);
    expect(badRules).toEqual({
      status: 2,
      stdout: '',
      stderr:
        `kimi-tools playground: --permissions ${rules}: line 2: invalid permission rule \`allow Edit()\`: ` +
        'the parentheses hold no glob: leave them out to match every path.\nRun with --help for usage.\n',
    });
  });
});
