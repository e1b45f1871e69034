import { runPlayground } from './playground.js';

// The program entry (`dist/main.js`): everything else is in runPlayground, which takes its streams as arguments.
// Ctrl-C stops the session after the running call (so the temporary directory is still removed); a second one
// leaves at once.
const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  process.stderr.write('\nInterrupted: stopping after this call (Ctrl-C again to quit at once).\n');
  interrupt.abort();
});

// `... | head`: once the reader is gone, stop the session quietly (the temporary directory is still removed).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  interrupt.abort();
});

runPlayground(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  interrupt: interrupt.signal,
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`kimi-tools playground crashed: ${text}\n`);
    process.exitCode = 1;
  },
);
