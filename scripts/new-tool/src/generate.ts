import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { addToolToDocsIndex, DOCS_INDEX } from './docs-index.js';
import { deriveNames, derivedIdentifiers, type NameRequest, type ToolNames } from './names.js';
import { Refusal } from './refusal.js';
import { fixedIdentifiers, renderTemplate } from './render-template.js';
import { sharedManifestValues, TEMPLATES_DIR, workspacePackageNamed } from './repository.js';
import { addSizeBudget, SIZE_BUDGETS } from './size-budget.js';

/** What to generate, and into which repository. */
export interface GenerateRequest extends NameRequest {
  /** The repository root (the directory holding `pnpm-workspace.yaml`). */
  root: string;
}

/** What was generated: paths relative to the root. */
export interface GeneratedPackage {
  names: ToolNames;
  created: string[];
  updated: string[];
}

interface PlannedFile {
  /** Relative to the root. */
  target: string;
  content: string;
}

/** Every template, relative to the templates directory. */
async function templateFiles(): Promise<string[]> {
  const entries = await fs.readdir(TEMPLATES_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tmpl'))
    .map((entry) =>
      path.relative(TEMPLATES_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

/**
 * Where a template goes: `package/**` into `packages/<name>/` (`tool.*` named after the class), `docs/tool.md` to
 * the tool's contract page, `changeset/new-package.md` to a changeset of its own.
 */
export function targetOf(template: string, names: ToolNames): string {
  const file = template.replace(/\.tmpl$/, '');
  if (file.startsWith('package/')) {
    return `packages/${names.name}/${file.slice('package/'.length).replace(/(^|\/)tool\./, `$1${names.fileName}.`)}`;
  }
  if (file === 'docs/tool.md') return `docs/${names.docsPage}`;
  if (file === 'changeset/new-package.md') return `.changeset/new-package-${names.name}.md`;
  throw new Error(`templates/${template}: no rule says where it goes (see targetOf).`);
}

/** Formats a generated file as `prettier --check .` expects it (files the repository's ignore file lists stay as they are). */
async function formatted(root: string, file: PlannedFile): Promise<PlannedFile> {
  const absolute = path.join(root, file.target);
  const info = await prettier.getFileInfo(absolute, { ignorePath: path.join(root, '.prettierignore') });
  if (info.ignored || !info.inferredParser) return file;
  const options = (await prettier.resolveConfig(absolute)) ?? {};
  return { ...file, content: await prettier.format(file.content, { ...options, filepath: absolute }) };
}

/** Refuses names already taken: the directory, the npm name, the contract page, the changeset, or identifiers. */
async function refuseTaken(
  root: string,
  names: ToolNames,
  templates: readonly string[],
): Promise<PlannedFile[]> {
  if (existsSync(path.join(root, 'packages', names.name))) {
    throw new Refusal(`packages/${names.name} already exists; choose another name. Nothing was written.`);
  }
  const holder = await workspacePackageNamed(root, names.packageName);
  if (holder) {
    throw new Refusal(
      `${names.packageName} is already the name of ${holder}; choose another name. Nothing was written.`,
    );
  }
  const planned: PlannedFile[] = [];
  const fixed = new Set<string>();
  for (const template of templates) {
    const text = await fs.readFile(path.join(TEMPLATES_DIR, template), 'utf8');
    if (template.endsWith('.ts.tmpl')) for (const identifier of fixedIdentifiers(text)) fixed.add(identifier);
    planned.push({ target: targetOf(template, names), content: text });
  }
  const clash = derivedIdentifiers(names).find((identifier) => fixed.has(identifier));
  if (clash) {
    throw new Refusal(
      `The class name ${names.ClassName} would declare ${clash}, a name the generated code already uses; ` +
        'choose another with --class-name. Nothing was written.',
    );
  }
  const taken = planned.find((file) => existsSync(path.join(root, file.target)));
  if (taken) {
    throw new Refusal(
      `${taken.target} already exists; choose another name (or --tool-name). Nothing was written.`,
    );
  }
  return planned;
}

/** Writes every file, never over an existing one (one that appeared meanwhile is an error), recording each in `created`. */
async function writeNew(root: string, files: readonly PlannedFile[], created: string[]): Promise<void> {
  for (const file of files) {
    const absolute = path.join(root, file.target);
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await fs.writeFile(absolute, file.content, { flag: 'wx' });
    created.push(absolute);
  }
}

/** Replaces a file's content through a temp file and a rename, so a failure leaves the old content. */
async function replaceFile(file: string, content: string): Promise<void> {
  const temp = `${file}.new-tool-${process.pid}`;
  try {
    await fs.writeFile(temp, content, { flag: 'wx' });
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** The repository's files the new package is added to, each with its content before and after (when it changes). */
async function plannedUpdates(
  root: string,
  names: ToolNames,
): Promise<Array<{ target: string; before: string; after: string }>> {
  const read = (target: string) => fs.readFile(path.join(root, target), 'utf8');
  const docsIndex = await read(DOCS_INDEX);
  const budgets = await read(SIZE_BUDGETS);
  const withBudget = addSizeBudget(budgets, names);
  return [
    { target: DOCS_INDEX, before: docsIndex, after: addToolToDocsIndex(docsIndex, names) },
    ...(withBudget === undefined ? [] : [{ target: SIZE_BUDGETS, before: budgets, after: withBudget }]),
  ];
}

/**
 * Creates `packages/<name>` (a working sample tool on the toolkit, its tests, README and build config), the tool's
 * contract page in `docs/` with a row in the docs index, its packed size budget, and a changeset. Every check runs
 * before anything is written: a refused request writes nothing.
 */
export async function generateToolPackage(request: GenerateRequest): Promise<GeneratedPackage> {
  const { root } = request;
  const names = deriveNames(request);
  const templates = await templateFiles();
  const planned = await refuseTaken(root, names, templates);
  const values = { ...names, ...(await sharedManifestValues(root)) };
  const files = await Promise.all(
    planned.map((file, at) =>
      formatted(root, {
        ...file,
        content: renderTemplate(file.content, values, `templates/${templates[at]}`),
      }),
    ),
  );
  const updates = await plannedUpdates(root, names);

  const created: string[] = [];
  const replaced: typeof updates = [];
  try {
    await writeNew(root, files, created);
    for (const update of updates) {
      await replaceFile(path.join(root, update.target), update.after);
      replaced.push(update);
    }
  } catch (error) {
    // Leave the repository as it was: no half-generated package, no row or budget of a package that is not there.
    await Promise.all(created.map((file) => fs.rm(file, { force: true })));
    await fs.rm(path.join(root, 'packages', names.name), { recursive: true, force: true });
    for (const update of replaced) await replaceFile(path.join(root, update.target), update.before);
    throw error;
  }
  return {
    names,
    created: files.map((file) => file.target),
    updated: updates.map((update) => update.target),
  };
}
