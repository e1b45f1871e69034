// `pnpm new-tool <name>`: generates a tool package (see cli.ts, and CONTRIBUTING.md for the steps around it).
import { runCli } from './cli.js';
import { REPOSITORY_ROOT } from './repository.js';

process.exitCode = await runCli(process.argv.slice(2), REPOSITORY_ROOT, {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
