// The floor under any Node WriteFile that writes atomically and durably: a fresh Node process, no imports, that takes
// the content as a string (as the model sends it), encodes it to UTF-8 and does exactly the durable write of WriteFile
// with no check at all: a temp file beside the target (exclusive create), one write, fsync, rename over the target,
// fsync of the directory. Synchronous calls: no thread-pool round trip per step, the lowest cost found.
// Usage: write-file-floor.ts TARGET NEW_FILE
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [target, newFile] = process.argv.slice(2);
if (target === undefined || newFile === undefined) {
  throw new Error('usage: write-file-floor.ts TARGET NEW_FILE');
}
// The content the model sends, as the tool receives it.
const content = readFileSync(newFile, 'utf8');
const readMs = sinceStartMs();

const bytes = Buffer.from(content, 'utf8');
const temp = path.join(path.dirname(target), `.${path.basename(target)}.floor-${process.pid}`);
const fd = openSync(temp, 'wx', 0o644);
try {
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  fsyncSync(fd);
} finally {
  closeSync(fd);
}
renameSync(temp, target);
const directory = openSync(path.dirname(target), 'r');
try {
  fsyncSync(directory);
} finally {
  closeSync(directory);
}
const writtenMs = sinceStartMs();
process.stdout.write(`${bytes.length} bytes written\n`);
reportDetails({ startMs, readMs: readMs - startMs, writeMs: writtenMs - readMs });
