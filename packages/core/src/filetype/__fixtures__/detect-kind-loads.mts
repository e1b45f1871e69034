// For file-type-loading.test.ts, in a fresh process (`tsx detect-kind-loads.mts <file>...`): detects each file's kind, then prints on stdout, as
// JSON, the kinds and whether file-type was loaded. NODE_DEBUG=esm makes Node log every module it loads on stderr.
import { detectFileKind } from '../file-kind.js';
import { readFileHead } from '../read-file-head.js';
import { localFileSystem } from '../../fs/local-file-system.js';

const kinds: unknown[] = [];
for (const file of process.argv.slice(2))
  kinds.push(await detectFileKind(file, await readFileHead(localFileSystem, file)));
process.stdout.write(JSON.stringify(kinds));
