import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { killAtExit } from './kill-at-exit.js';
import { LanguageServer } from './language-server.js';

const SERVERS = 12;

/** A process that runs until it is killed, answering nothing. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

function exitListenersAddedSince(before: readonly unknown[]): NodeJS.ExitListener[] {
  return process.listeners('exit').filter((listener) => !before.includes(listener));
}

describe('language servers at the exit of the process', () => {
  it('one exit listener, whatever the number of servers, kills every one not yet gone', async () => {
    const before = process.listeners('exit');
    const children = Array.from({ length: SERVERS }, sleeper);
    const forgets = children.map(killAtExit);
    const added = exitListenersAddedSince(before);
    expect(added).toHaveLength(1);
    // The first has exited as far as its server knows: the exit of the process leaves it alone.
    forgets[0]!();
    const killed = children
      .slice(1)
      .map((child) => new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal))));
    // What the exit of this process runs.
    added[0]!(0);
    expect(await Promise.all(killed)).toEqual(Array.from({ length: SERVERS - 1 }, () => 'SIGKILL'));
    expect([children[0]!.exitCode, children[0]!.signalCode]).toEqual([null, null]);
    children[0]!.kill('SIGKILL');
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
    const servers = Array.from({ length: SERVERS }, () => new LanguageServer(config, os.tmpdir()));
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
