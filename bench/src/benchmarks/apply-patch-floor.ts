// The floor under any Node ApplyPatch that commits durably: a fresh Node process, no imports, that reads the patch
// and each file it names, changes the one line each hunk changes (found by plain string search, no checks), and
// writes every file durably as ApplyPatch does: temp files beside the targets (exclusive create, write, fsync), then
// the renames, then an fsync of the directory. Synchronous calls, the lowest cost found (see write-file-floor.ts).
// Usage: apply-patch-floor.ts WORK_DIR PATCH_FILE
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';

const startMs = sinceStartMs();
const [workDir, patchFile] = process.argv.slice(2);
if (workDir === undefined || patchFile === undefined)
  throw new Error('usage: apply-patch-floor.ts WORK_DIR PATCH_FILE');

// Each file's removed and added line, from the unified diff: enough to make the same change.
const changes = new Map<string, { removed: string; added: string }>();
let file = '';
for (const line of readFileSync(patchFile, 'utf8').split('\n')) {
  if (line.startsWith('+++ b/')) file = line.slice(6);
  else if (line.startsWith('-') && !line.startsWith('---'))
    changes.set(file, { removed: line.slice(1), added: '' });
  else if (line.startsWith('+') && !line.startsWith('+++')) changes.get(file)!.added = line.slice(1);
}
const temps: [string, string][] = [];
for (const [name, { removed, added }] of changes) {
  const target = path.join(workDir, name);
  const bytes = Buffer.from(readFileSync(target, 'utf8').replace(removed, added), 'utf8');
  const temp = path.join(workDir, `.${name}.floor-${process.pid}`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  temps.push([temp, target]);
}
for (const [temp, target] of temps) renameSync(temp, target);
const directory = openSync(workDir, 'r');
try {
  fsyncSync(directory);
} finally {
  closeSync(directory);
}
process.stdout.write(`${temps.length} files written\n`);
reportDetails({ startMs, workMs: sinceStartMs() - startMs });
