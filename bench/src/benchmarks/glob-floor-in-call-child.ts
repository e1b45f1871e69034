// The floor under an in-call Glob: the plain walk of `glob-floor-walk.ts` against tinyglobby (the same options as
// `glob-in-call-child.ts`) in one warm process, taking turns. Usage: glob-floor-in-call-child.ts ROOT PATTERN SUFFIX PAIRS
import { glob as tinyglobby } from 'tinyglobby';
import { reportDetails, runPairs } from '../harness/child-report.js';
import { walkBySuffix } from './glob-floor-walk.js';

const [root, pattern, suffix, pairs] = process.argv.slice(2);
if (root === undefined || pattern === undefined || suffix === undefined)
  throw new Error('usage: glob-floor-in-call-child.ts ROOT PATTERN SUFFIX PAIRS');

let floorTotal = 0;
await runPairs(
  Number(pairs),
  async () => {
    floorTotal = (await walkBySuffix(root, suffix)).length;
  },
  () =>
    tinyglobby(pattern, {
      cwd: root,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: true,
      ignore: ['**/.git/**', '**/node_modules/**'],
    }),
);
reportDetails({ floorTotal });
