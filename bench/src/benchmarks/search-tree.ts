// The source tree the search benchmark runs on: 50,000 files (~50 MB) in 50 packages × 20 modules, made once.
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomLine, seededRandom } from '../harness/seeded-text.js';

const PACKAGES = 50;
const MODULES = 20;
const FILES_PER_MODULE = 50;
/** Files in the tree. */
export const TREE_FILE_COUNT = PACKAGES * MODULES * FILES_PER_MODULE;
const LINES_PER_FILE = 30;
/** In every 97th file: the rare pattern of the content case (~500 matching lines). */
export const RARE_TOKEN = 'TODO(bench)';
/** In every 10th file: the pattern of the files case (5,000 files). */
export const COMMON_TOKEN = 'useState';
const EXTENSIONS = ['ts', 'ts', 'ts', 'ts', 'ts', 'ts', 'js', 'js', 'json', 'md'];

function fileText(index: number, random: () => number): string {
  const lines = Array.from({ length: LINES_PER_FILE }, () => randomLine(random, 40));
  if (index % 10 === 0) lines[3] = `  const [value, setValue] = ${COMMON_TOKEN}(${index});`;
  if (index % 97 === 0) lines[LINES_PER_FILE - 5] = `  // ${RARE_TOKEN}: revisit ${index}`;
  return `${lines.join('\n')}\n`;
}

/**
 * Makes the tree under `dataDir` unless it is there already, and returns its root. It is a git-like checkout: an
 * empty `.git` and a `.gitignore`, so ripgrep and Glob both apply ignore rules. Built under a temporary name and
 * renamed, so an interrupted run never leaves half a tree.
 */
export async function ensureSearchTree(dataDir: string, log: (message: string) => void): Promise<string> {
  const root = path.join(dataDir, 'tree-v1');
  try {
    await access(root);
    return root;
  } catch {
    // Not made yet.
  }
  log(`  generating ${TREE_FILE_COUNT} files in ${root}`);
  const partial = `${root}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.join(partial, '.git'), { recursive: true });
  await writeFile(path.join(partial, '.gitignore'), 'dist/\n*.log\n');
  const random = seededRandom(50_000);
  let index = 0;
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    for (let mod = 0; mod < MODULES; mod++) {
      const dir = path.join(
        partial,
        `pkg${String(pkg).padStart(2, '0')}`,
        'src',
        `mod${String(mod).padStart(2, '0')}`,
      );
      await mkdir(dir, { recursive: true });
      const writes: Array<Promise<void>> = [];
      for (let file = 0; file < FILES_PER_MODULE; file++, index++) {
        const name = `file${String(file).padStart(3, '0')}.${EXTENSIONS[index % EXTENSIONS.length]}`;
        writes.push(writeFile(path.join(dir, name), fileText(index, random)));
      }
      await Promise.all(writes);
    }
  }
  await rename(partial, root);
  return root;
}
