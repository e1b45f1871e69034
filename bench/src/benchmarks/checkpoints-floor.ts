// The floor under any checkpoint that must notice changes made by anything else, in a fresh Node process with no code
// of ours: Node's start-up and one `lstat` of every path (the stamps a change moves), then the count printed. It skips
// by name what the checkpoint's scan always skips (version-control folders, `node_modules`) but reads no ignore file:
// it lstats the few paths the rules leave out too (on the corpus, 8 of 63,000), so it never does less than the scan.
// MODE `walk`: the paths are found by a walk with `readdirSync(withFileTypes)`, as a scan without an index finds them
// (given LIST_OUT, the untimed preparation run writes them there, relative and NUL-separated). MODE `list`: they are
// read from LIST, as a scan reads its last index; a directory whose stamps did not move holds the same names (adding,
// removing or renaming moves them), so with nothing changed no directory needs listing: the least there is.
// Synchronous calls: on the corpus (5 runs each, a busy 2-core machine) the walk took 0.49–0.85 s wall and 0.47–0.53 s
// CPU, where `readdir` and `lstat` through the thread pool (128 in flight) took 0.73–1.08 s and 0.88–1.00 s.
// MODE `restore`: `list`, then each file named in RESTORE (relative, NUL-separated) written as a rewind must write it,
// atomically and durably: its bytes (read back, the size a restore writes within a line) into a new temp file beside
// it, fsync, rename over it, then one fsync of each directory renamed into. `git checkout` writes in place, unsynced.
// Usage: checkpoints-floor.ts walk ROOT [LIST_OUT] | checkpoints-floor.ts list ROOT LIST
//        | checkpoints-floor.ts restore ROOT LIST RESTORE
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';

/** Folders the checkpoint's scan skips by name, whatever the ignore files say (core's, as in glob-floor-walk.ts). */
const SKIPPED = new Set(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl', 'node_modules']);

const startMs = sinceStartMs();
const [mode, root, list, restoreList] = process.argv.slice(2);
if (
  root === undefined ||
  (mode !== 'walk' && mode !== 'list' && mode !== 'restore') ||
  (mode !== 'walk' && list === undefined) ||
  (mode === 'restore' && restoreList === undefined)
) {
  throw new Error(
    'usage: checkpoints-floor.ts walk ROOT [LIST_OUT] | checkpoints-floor.ts list ROOT LIST | ' +
      'checkpoints-floor.ts restore ROOT LIST RESTORE',
  );
}

/** Walks the tree under `root`, lstats every path; returns how many, and writes them to `listOut` if given. */
function walk(listOut: string | undefined): number {
  const found: string[] = [''];
  lstatSync(root!);
  let paths = 1;
  const directories = [root!];
  for (let dir = directories.pop(); dir !== undefined; dir = directories.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const full = `${dir}/${entry.name}`;
      lstatSync(full);
      paths += 1;
      if (listOut !== undefined) found.push(full.slice(root!.length + 1));
      if (entry.isDirectory()) directories.push(full);
    }
  }
  if (listOut !== undefined) writeFileSync(listOut, found.join('\0'));
  return paths;
}

/** Lstats every path of the list (relative to `root`, `''` for it); returns how many. */
function lstatListed(listed: string): number {
  const paths = readFileSync(listed, 'utf8').split('\0');
  for (const relative of paths) lstatSync(relative === '' ? root! : `${root}/${relative}`);
  return paths.length;
}

/** Writes each file of the list (relative to `root`) atomically and durably; returns how many. */
function restoreListed(listed: string): number {
  const files = readFileSync(listed, 'utf8').split('\0');
  const directories = new Set<string>();
  for (const relative of files) {
    const file = `${root}/${relative}`;
    const bytes = readFileSync(file);
    const temp = `${file}.floor-${process.pid}`;
    const descriptor = openSync(temp, 'wx');
    writeSync(descriptor, bytes);
    fsyncSync(descriptor);
    closeSync(descriptor);
    renameSync(temp, file);
    directories.add(path.dirname(file));
  }
  for (const directory of directories) {
    const descriptor = openSync(directory, 'r');
    fsyncSync(descriptor);
    closeSync(descriptor);
  }
  return files.length;
}

const paths = mode === 'walk' ? walk(list) : lstatListed(list!);
const restored = mode === 'restore' ? restoreListed(restoreList!) : 0;
process.stdout.write(`${paths} paths${mode === 'restore' ? `, ${restored} files written` : ''}\n`);
reportDetails({ startMs, workMs: sinceStartMs() - startMs, paths, restored });
