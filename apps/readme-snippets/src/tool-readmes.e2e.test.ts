import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { it, startSshServer } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

interface Result {
  output: unknown;
  message: string;
  extras?: Record<string, unknown>;
  display?: unknown[];
}

/** Runs a snippet, checks it ran cleanly, and returns the values `names` held at its end (JSON). */
async function valuesOf(run: ReturnType<typeof runSnippet>): Promise<Record<string, Result>> {
  const done = await run;
  expect(done.stderr).toBe('');
  expect(done.exitCode).toBe(0);
  return JSON.parse(done.stdout.trim().split('\n').at(-1) ?? '') as Record<string, Result>;
}

const print = (...names: string[]) => `console.log(JSON.stringify({ ${names.join(', ')} }));`;

describe('packages/read', async () => {
  const [usage] = await readmeBlocks('packages/read/README.md');
  it('the Usage runs and answers what its comments say', async ({ workspace }) => {
    await workspace.writeAll({
      'src/app.ts': `${'// setup\n'.repeat(9)}import { serve } from './server.js';\n\nserve({ port: 8080 });\n`,
      'logs/app.log': 'started\nstopped\n',
    });
    const { result, tail } = await valuesOf(
      runSnippet(workspace, usage!.code, { after: print('result', 'tail') }),
    );
    expect(result).toMatchObject({
      output: "    10\timport { serve } from './server.js';\n    11\t\n    12\tserve({ port: 8080 });\n",
      message: '3 lines read from file starting from line 10. Total lines in file: 12.',
    });
    expect(tail!.output).toBe('     1\tstarted\n     2\tstopped\n');
  });
});

describe('packages/write', async () => {
  const [usage, approvalAndUndo] = await readmeBlocks('packages/write/README.md');
  it('the Usage runs and answers what its comments say', async ({ workspace }) => {
    const { result } = await valuesOf(runSnippet(workspace, usage!.code, { after: print('result') }));
    expect(result).toMatchObject({
      message: 'File successfully overwritten. Current size: 10 bytes. Created directories: notes.',
      extras: { created: true, bytes: 10 },
      display: [{ type: 'diff', path: workspace.at('notes/todo.md'), oldText: '', newText: '- ship it' }],
    });
  });

  // Issue 29.9: the example asked an `askTheUser` it never defined and restored a path that does not exist.
  it('the custom approval and undo example runs: asks, appends, and undoes', async ({ workspace }) => {
    const changelog = await workspace.write('CHANGELOG.md', '# Changelog\n');
    const run = await runSnippet(workspace, approvalAndUndo!.code, { input: 'yes\n' });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Write file \`${changelog}\` (yes/always/no) `);
    expect(await readFile(changelog, 'utf8')).toBe('# Changelog\n');
  });
});

describe('packages/replace', async () => {
  const [usage] = await readmeBlocks('packages/replace/README.md');
  it('the Usage runs and answers what its comments say', async ({ workspace }) => {
    await workspace.write('src/app.ts', 'const retries = 3;\noldName();\noldName();\nexport { oldName };\n');
    const { result } = await valuesOf(runSnippet(workspace, usage!.code, { after: print('result') }));
    expect(result).toMatchObject({
      message: 'File successfully edited. Applied 2 edit(s) with 4 total replacement(s).',
      extras: {
        replacements: 4,
        matchedBy: 'exact',
        edits: [
          { replacements: 1, matchedBy: 'exact' },
          { replacements: 3, matchedBy: 'exact' },
        ],
      },
    });
  });
});

describe('packages/notebook', async () => {
  const [usage] = await readmeBlocks('packages/notebook/README.md');
  const notebook = {
    cells: [
      { cell_type: 'markdown', id: '2fcdfa53', metadata: {}, source: ['# Analysis'] },
      {
        cell_type: 'code',
        execution_count: 1,
        id: '38f37a24',
        metadata: {},
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['0\n'] }],
        source: ['print(0)'],
      },
    ],
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  it('the Usage runs and answers what its comments say', async ({ workspace }) => {
    await workspace.write('analysis.ipynb', `${JSON.stringify(notebook, null, 1)}\n`);
    const { result } = await valuesOf(runSnippet(workspace, usage!.code, { after: print('result') }));
    expect(result).toMatchObject({
      message: 'Replaced cell 38f37a24 (code). Its outputs and execution count were cleared.',
      extras: { mode: 'replace', cellId: '38f37a24', cellType: 'code' },
    });
  });
});

describe('packages/patch', async () => {
  const [usage] = await readmeBlocks('packages/patch/README.md');
  it('the Usage adds its file, all or nothing, and says so', async ({ workspace }) => {
    const { result } = await valuesOf(runSnippet(workspace, usage!.code, { after: print('result') }));
    expect(result).toMatchObject({ message: 'Success. Updated the following files:\nA hello.txt' });
    expect(await readFile(workspace.at('hello.txt'), 'utf8')).toBe('Hello, world\n');
  });
});

describe('packages/ssh', async () => {
  const [quickStart] = await readmeBlocks('packages/ssh/README.md');
  it('the Quick start reads a file on the host, as a user with a key and a known host would', async ({
    workspace,
  }) => {
    const server = await startSshServer();
    try {
      // The user's own ~/.ssh: the key the snippet reads, and the server in known_hosts (no fingerprint given).
      const home = path.join(workspace.root, 'home');
      await mkdir(path.join(home, '.ssh'), { recursive: true });
      await writeFile(path.join(home, '.ssh', 'id_ed25519'), server.privateKey, { mode: 0o600 });
      const hostKey = server.hostKeys[0]!.line;
      await writeFile(path.join(home, '.ssh', 'known_hosts'), `[127.0.0.1]:${server.port} ${hostKey}\n`);
      await workspace.write('src/index.ts', 'export const onTheHost = true;\n');
      const run = await runSnippet(workspace, quickStart!.code, {
        env: { HOME: home },
        replace: {
          "host: 'build.example.org',": `host: '127.0.0.1', port: ${server.port},`,
          "username: 'deploy',": `username: '${server.username}',`,
          "'/srv/app'": `'${workspace.workDir}'`,
        },
      });
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe('     1\texport const onTheHost = true;\n\n');
    } finally {
      await server.stop();
    }
  });
});

describe('packages/checkpoints', async () => {
  const [usage] = await readmeBlocks('packages/checkpoints/README.md');
  it('the Usage takes a checkpoint, diffs and rewinds, with its store in the state directory', async ({
    workspace,
  }) => {
    await workspace.write('notes.txt', 'kept\n');
    const state = path.join(workspace.root, 'state');
    const run = await runSnippet(workspace, usage!.code, { env: { XDG_STATE_HOME: state } });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(await readFile(workspace.at('notes.txt'), 'utf8')).toBe('kept\n');
    expect((await readdir(path.join(state, 'kimi-tools', 'checkpoints'))).length).toBe(1);
  });
});
