// The floor under any Node Grep: a fresh Node process that only spawns ripgrep and forwards its output — Node's
// start-up and a pipe, no imports, no shaping. Usage: ripgrep-forward.ts CWD RG [RG_ARGS...]
import { spawn } from 'node:child_process';

const [cwd, rg, ...args] = process.argv.slice(2);
if (cwd === undefined || rg === undefined) throw new Error('usage: ripgrep-forward.ts CWD RG [RG_ARGS...]');
const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.pipe(process.stdout);
// ripgrep exits 1 when nothing matched: not a failure here.
child.on('close', (code) => (process.exitCode = code === 1 ? 0 : (code ?? 1)));
