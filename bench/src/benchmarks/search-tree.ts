// The synthetic source tree Grep and Glob run on when no real one is given: ~51,000 files in 50 packages, with
// nested ignore files so that ignore handling costs what it costs in a real checkout. Made once.
import { access, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomLine, seededRandom } from '../harness/seeded-text.js';

const PACKAGES = 50;
const MODULES = 20;
const FILES_PER_MODULE = 50;
const LINES_PER_FILE = 30;
/** In every 97th file: the pattern of the content case. */
export const RARE_TOKEN = 'TODO(bench)';
/** In every 10th file: the pattern of the files case. */
export const COMMON_TOKEN = 'useState';
const EXTENSIONS = ['ts', 'ts', 'ts', 'ts', 'ts', 'ts', 'js', 'js', 'json', 'md'];

function fileText(index: number, random: () => number): string {
  const lines = Array.from({ length: LINES_PER_FILE }, () => randomLine(random, 40));
  if (index % 10 === 0) lines[3] = `  const [value, setValue] = ${COMMON_TOKEN}(${index});`;
  if (index % 97 === 0) lines[LINES_PER_FILE - 5] = `  // ${RARE_TOKEN}: revisit ${index}`;
  return `${lines.join('\n')}\n`;
}

/** Writes `count` small files named `name(i)` into `dir`. */
async function writeFiles(
  dir: string,
  count: number,
  name: (index: number) => string,
  random: () => number,
  firstIndex: number,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      writeFile(path.join(dir, name(index)), fileText(firstIndex + index, random)),
    ),
  );
}

/**
 * One package: `src/modNN/` of sources, and what its ignore files hide — a `.gitignore` of the package (a folder
 * and an extension, with a negation), one per `src/mod00` (a basename pattern and an anchored one), a `.ignore` in
 * every tenth package, a `dist/` hidden by the root's rules, and in two packages a `node_modules` (always skipped).
 */
async function writePackage(root: string, pkg: number, random: () => number): Promise<void> {
  const dir = path.join(root, `pkg${String(pkg).padStart(2, '0')}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, '.gitignore'), 'generated/\n*.snap\n!keep.snap\n');
  for (let mod = 0; mod < MODULES; mod++) {
    const index = (pkg * MODULES + mod) * FILES_PER_MODULE;
    const moduleDir = path.join(dir, 'src', `mod${String(mod).padStart(2, '0')}`);
    await writeFiles(
      moduleDir,
      FILES_PER_MODULE,
      (file) => `file${String(file).padStart(3, '0')}.${EXTENSIONS[(index + file) % EXTENSIONS.length]}`,
      random,
      index,
    );
  }
  await writeFile(path.join(dir, 'src', 'mod00', '.gitignore'), 'file04*.ts\n/local/\n');
  await writeFiles(path.join(dir, 'src', 'mod00', 'local'), 5, (file) => `scratch${file}.ts`, random, 0);
  await writeFiles(path.join(dir, 'generated'), 20, (file) => `gen${file}.ts`, random, 0);
  await writeFiles(
    path.join(dir, 'snapshots'),
    4,
    (file) => (file === 0 ? 'keep.snap' : `s${file}.snap`),
    random,
    0,
  );
  await writeFiles(path.join(dir, 'dist'), 5, (file) => `out${file}.ts`, random, 0);
  if (pkg % 10 === 0) {
    await writeFile(path.join(dir, '.ignore'), 'fixtures/\n');
    await writeFiles(path.join(dir, 'fixtures'), 10, (file) => `fixture${file}.ts`, random, 0);
  }
  if (pkg % 25 === 0) {
    await writeFiles(path.join(dir, 'node_modules', 'dep'), 10, (file) => `index${file}.ts`, random, 0);
  }
}

/**
 * Makes the tree under `dataDir` unless it is there already, and returns its root. It is a git-like checkout (an
 * empty `.git`), so ripgrep and Glob both apply the ignore files; a symlinked folder and a symlinked file show how
 * links are treated. Built under a temporary name and renamed, so an interrupted run never leaves half a tree.
 */
export async function ensureSearchTree(dataDir: string, log: (message: string) => void): Promise<string> {
  const root = path.join(dataDir, 'tree-v2');
  try {
    await access(root);
    return root;
  } catch {
    // Not made yet.
  }
  log(`  generating the synthetic tree in ${root}`);
  const partial = `${root}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.join(partial, '.git'), { recursive: true });
  await writeFile(path.join(partial, '.gitignore'), 'dist/\n*.log\n');
  const random = seededRandom(50_000);
  for (let pkg = 0; pkg < PACKAGES; pkg++) await writePackage(partial, pkg, random);
  await symlink('../../pkg01/src', path.join(partial, 'pkg00', 'src', 'linked-dir'));
  await symlink('mod00/file000.ts', path.join(partial, 'pkg00', 'src', 'linked-file.ts'));
  await rename(partial, root);
  return root;
}
