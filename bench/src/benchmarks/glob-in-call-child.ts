// Glob against tinyglobby in one warm process, taking turns. tinyglobby gets the closest options: dot files, no
// symlink following, `.git` and `node_modules` skipped; it reads no ignore files, so it lists more.
// Usage: glob-in-call-child.ts ROOT PATTERN PAIRS
import { glob as tinyglobby } from 'tinyglobby';
import { reportDetails, runPairs } from '../harness/child-report.js';
import { buildGlob } from '../tools.js';

const [root, pattern, pairs] = process.argv.slice(2);
if (root === undefined || pattern === undefined)
  throw new Error('usage: glob-in-call-child.ts ROOT PATTERN PAIRS');

const glob = await buildGlob(root);
let oursTotal = 0;
let tinyglobbyTotal = 0;
await runPairs(
  Number(pairs),
  async () => {
    const result = await glob.call({ pattern, include_dirs: false });
    if (result.isError) throw new Error(`Glob failed: ${result.message}`);
    oursTotal = Number(result.extras?.['total'] ?? -1);
  },
  async () => {
    const found = await tinyglobby(pattern, {
      cwd: root,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: true,
      ignore: ['**/.git/**', '**/node_modules/**'],
    });
    tinyglobbyTotal = found.length;
  },
);
reportDetails({ oursTotal, tinyglobbyTotal });
