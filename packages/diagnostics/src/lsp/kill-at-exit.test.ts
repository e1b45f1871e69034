import os from 'node:os';
import { localFileSystem, type ExecProcess } from '@kimi-tools/core/fs';
import { describe, expect, it } from 'vitest';
import { killAtExit } from './kill-at-exit.js';
import { LanguageServer } from './language-server.js';

const SERVERS = 12;

/** A program that runs until it is killed, answering nothing. */
function sleeper(): ExecProcess {
  const program = localFileSystem.exec!(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  program.stdout.resume();
  program.stderr.resume();
  return program;
}

function exitListenersAddedSince(before: readonly unknown[]): NodeJS.ExitListener[] {
  return process.listeners('exit').filter((listener) => !before.includes(listener));
}

describe('language servers at the exit of the process', () => {
  it('one exit listener, whatever the number of servers, kills every one not yet gone', async () => {
    const before = process.listeners('exit');
    const programs = Array.from({ length: SERVERS }, sleeper);
    expect(await Promise.all(programs.map((program) => program.started))).not.toContain(false);
    const forgets = programs.map(killAtExit);
    const added = exitListenersAddedSince(before);
    expect(added).toHaveLength(1);
    // The first has exited as far as its server knows: the exit of the process leaves it alone.
    forgets[0]!();
    let firstEnded = false;
    void programs[0]!.exit.then(() => (firstEnded = true));
    // What the exit of this process runs.
    added[0]!(0);
    const killed = programs.slice(1).map((program) => program.exit.then((status) => status.signal));
    expect(await Promise.all(killed)).toEqual(Array.from({ length: SERVERS - 1 }, () => 'SIGKILL'));
    expect(firstEnded).toBe(false);
    programs[0]!.kill();
    await programs[0]!.exit;
    for (const forget of forgets) forget();
    expect(exitListenersAddedSince(before)).toEqual([]);
  });

  it('more than ten servers at once: no warning of a listener leak', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const before = process.listeners('exit');
    const config = {
      name: 'silent',
      command: process.execPath,
      args: ['-e', 'process.stdin.resume()'],
      languages: { '.x': 'x' },
    };
    const servers = Array.from(
      { length: SERVERS },
      () => new LanguageServer(config, localFileSystem, os.tmpdir()),
    );
    try {
      expect(exitListenersAddedSince(before)).toHaveLength(1);
      // Node emits its warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      process.off('warning', onWarning);
    }
    expect(exitListenersAddedSince(before)).toEqual([]);
  });
});
