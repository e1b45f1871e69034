// The floor under a whole-process Glob: a fresh Node process that only walks the tree (see `glob-floor-walk.ts`),
// prints every path found and exits — Node's start-up and a plain walk, nothing else.
// Usage: glob-floor-child.ts ROOT SUFFIX
import { walkBySuffix } from './glob-floor-walk.js';

const [root, suffix] = process.argv.slice(2);
if (root === undefined || suffix === undefined) throw new Error('usage: glob-floor-child.ts ROOT SUFFIX');
const found = await walkBySuffix(root, suffix);
process.stdout.write(found.length === 0 ? '' : `${found.join('\n')}\n`);
