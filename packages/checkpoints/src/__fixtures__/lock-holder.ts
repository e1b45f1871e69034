// A writer in a process of its own, for rewind-and-other-writers.test.ts: it takes the lock file of the file `argv[2]`
// (core's withFileLock, on the local disk) and prints `locked`; at a line on stdin it writes `argv[3]` to the file
// under that lock, releases the lock, and prints `released`.
import { promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { localFileSystem } from '@kimi-tools/core/fs';
import { withFileLock } from '@kimi-tools/core/toolkit';

const [file, content] = process.argv.slice(2) as [string, string];
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await withFileLock(localFileSystem, file, async () => {
  process.stdout.write('locked\n');
  await lines.next();
  await fs.writeFile(file, content);
});
process.stdout.write('released\n');
process.exit(0);
