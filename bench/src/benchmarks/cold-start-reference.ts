// The floor under any Node tool: a fresh process (an ES module, like ours) reads a small file and prints it.
// Usage: cold-start-reference.ts FILE
import { readFile } from 'node:fs/promises';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-reference.ts FILE');
process.stdout.write(await readFile(file, 'utf8'));
