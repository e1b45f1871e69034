import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TempWorkspace } from '@kimi-tools/test-kit';
import * as prettier from 'prettier';
import { describe, expect } from 'vitest';
import { test } from './__fixtures__/repository-copy.js';
import { generateToolPackage } from './generate.js';
import { REPOSITORY_ROOT } from './repository.js';

/** Every file under `root` with its content, to show that a refusal changed nothing. */
async function tree(workspace: TempWorkspace): Promise<Record<string, string>> {
  const entries = await fs.readdir(workspace.workDir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((item) => item.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(workspace.workDir, file)] = await fs.readFile(file, 'utf8');
  }
  return files;
}

describe('generateToolPackage', () => {
  test('makes notebook --tool-name NotebookEdit: the package, its contract page, an index row, a size budget, a changeset', async ({
    repo,
  }) => {
    const generated = await generateToolPackage({ root: repo, name: 'notebook', toolName: 'NotebookEdit' });
    expect(generated.names.ClassName).toBe('NotebookEdit');
    expect(generated.updated).toEqual(['docs/README.md', 'scripts/release/src/size-budgets.ts']);
    expect(generated.created.sort()).toEqual([
      '.changeset/new-package-notebook.md',
      'docs/notebook-edit.md',
      'packages/notebook/README.md',
      'packages/notebook/package.json',
      'packages/notebook/src/description.ts',
      'packages/notebook/src/errors.ts',
      'packages/notebook/src/facts.ts',
      'packages/notebook/src/index.ts',
      'packages/notebook/src/limits.ts',
      'packages/notebook/src/notebook-edit.md',
      'packages/notebook/src/notebook-edit.test.ts',
      'packages/notebook/src/notebook-edit.ts',
      'packages/notebook/src/params.ts',
      'packages/notebook/src/tool-zod.ts',
      'packages/notebook/tsconfig.json',
      'packages/notebook/tsup.config.ts',
      'packages/notebook/vitest.config.ts',
    ]);

    const read = (file: string) => fs.readFile(path.join(repo, file), 'utf8');
    expect(await read('packages/notebook/src/index.ts')).toContain(
      "export { NotebookEdit, type NotebookEditOptions } from './notebook-edit.js';",
    );
    const tool = await read('packages/notebook/src/notebook-edit.ts');
    expect(tool).toContain('export class NotebookEdit extends CallableTool<');
    expect(tool).toContain("readonly name = 'NotebookEdit';");
    expect(await read('docs/README.md')).toMatch(
      /^\| \[NotebookEdit\]\(notebook-edit\.md\) +\| `@kimi-tools\/notebook` +\|$/m,
    );
    // Without a budget, the release tests of `pnpm test` fail for the new package.
    expect(await read('scripts/release/src/size-budgets.ts')).toMatch(
      /^ {2}'@kimi-tools\/notebook': 60_000,\n\};$/m,
    );
    expect(await read('.changeset/new-package-notebook.md')).toMatch(
      /^---\n'@kimi-tools\/notebook': minor\n---\n/,
    );

    const manifest = JSON.parse(await read('packages/notebook/package.json')) as Record<string, unknown>;
    const core = JSON.parse(await read('packages/core/package.json')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: '@kimi-tools/notebook',
      engines: core['engines'],
      peerDependencies: { ...(core['peerDependencies'] as object), '@kimi-tools/core': 'workspace:^' },
      devDependencies: { '@kimi-tools/core': 'workspace:*' },
      repository: { url: (core['repository'] as { url: string }).url, directory: 'packages/notebook' },
      homepage: 'https://github.com/kimi-tools/kimi-tools/tree/main/packages/notebook#readme',
      bugs: { url: 'https://github.com/kimi-tools/kimi-tools/issues' },
      keywords: ['ai', 'agent', 'llm', 'tools', 'file', 'notebook'],
    });
    expect(manifest).not.toHaveProperty('dependencies');

    // Every file is complete, and formatted as `prettier --check .` wants it unless the ignore file lists it.
    let checked = 0;
    for (const file of [...generated.created, ...generated.updated]) {
      const content = await read(file);
      expect(content, file).not.toMatch(/\{\{\w+\}\}/);
      const absolute = path.join(repo, file);
      const info = await prettier.getFileInfo(absolute, { ignorePath: path.join(repo, '.prettierignore') });
      if (info.ignored) continue;
      const options = (await prettier.resolveConfig(absolute)) ?? {};
      expect(await prettier.check(content, { ...options, filepath: absolute }), file).toBe(true);
      checked += 1;
    }
    expect(checked).toBe(14);
  });

  test('refuses an existing package directory and writes nothing', async ({ repo, workspace }) => {
    await workspace.write('packages/notebook/keep.txt', 'mine\n');
    const before = await tree(workspace);
    await expect(generateToolPackage({ root: repo, name: 'notebook' })).rejects.toThrow(
      'packages/notebook already exists; choose another name. Nothing was written.',
    );
    expect(await tree(workspace)).toEqual(before);
  });

  test('refuses an npm name another workspace package has, and writes nothing', async ({
    repo,
    workspace,
  }) => {
    await workspace.write('packages/other/package.json', JSON.stringify({ name: '@kimi-tools/notebook' }));
    const before = await tree(workspace);
    await expect(generateToolPackage({ root: repo, name: 'notebook' })).rejects.toThrow(
      '@kimi-tools/notebook is already the name of packages/other; choose another name. Nothing was written.',
    );
    expect(await tree(workspace)).toEqual(before);
  });

  test('refuses a taken contract page or a clashing class name, and writes nothing', async ({
    repo,
    workspace,
  }) => {
    await workspace.write('docs/notebook-edit.md', '# NotebookEdit\n');
    const before = await tree(workspace);
    await expect(
      generateToolPackage({ root: repo, name: 'notebook', toolName: 'NotebookEdit' }),
    ).rejects.toThrow(
      'docs/notebook-edit.md already exists; choose another name (or --tool-name). Nothing was written.',
    );
    await expect(
      generateToolPackage({ root: repo, name: 'calls', className: 'CallableTool' }),
    ).rejects.toThrow(
      'The class name CallableTool would declare CallableTool, a name the generated code already uses; ' +
        'choose another with --class-name. Nothing was written.',
    );
    await expect(generateToolPackage({ root: repo, name: 'Bad_Name' })).rejects.toThrow(
      'Invalid package name',
    );
    expect(await tree(workspace)).toEqual(before);
  });

  test('leaves nothing behind when a write fails midway', async ({ repo, workspace }) => {
    // A directory where the changeset goes: every check passes, then writing it fails.
    await workspace.mkdir('.changeset/new-package-notebook.md');
    await expect(generateToolPackage({ root: repo, name: 'notebook' })).rejects.toThrow();
    const after = await tree(workspace);
    expect(Object.keys(after).filter((file) => file.startsWith('packages/notebook'))).toEqual([]);
    expect(after['docs/README.md']).toBe(
      await fs.readFile(path.join(REPOSITORY_ROOT, 'docs/README.md'), 'utf8'),
    );
  });

  test('gives the docs index its content back when adding the size budget fails', async ({
    repo,
    workspace,
  }) => {
    // A directory where the budget file's temp file goes: the package and the index row are written, then it fails.
    await workspace.mkdir(`scripts/release/src/size-budgets.ts.new-tool-${process.pid}`);
    const before = await tree(workspace);
    await expect(generateToolPackage({ root: repo, name: 'notebook' })).rejects.toThrow();
    expect(await tree(workspace)).toEqual(before);
  });

  test('keeps a size budget the package has already', async ({ repo, workspace }) => {
    const budgets = await fs.readFile(path.join(repo, 'scripts/release/src/size-budgets.ts'), 'utf8');
    // The release rehearsal's budget for the package it generates.
    const generated = await generateToolPackage({ root: repo, name: 'file-facts' });
    expect(generated.updated).toEqual(['docs/README.md']);
    expect(await fs.readFile(workspace.at('scripts/release/src/size-budgets.ts'), 'utf8')).toBe(budgets);
  });
});
