import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nextLine } from './child-lines.js';

describe('nextLine', () => {
  it('resolves with each line the child prints, without its line break', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "process.stdout.write('in-lock\\n'); setTimeout(() => {}, 5_000)"],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      expect(await nextLine(child)).toBe('in-lock');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('rejects, naming the child, when it exits before a line', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(3)'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await expect(nextLine(child, 'the writer')).rejects.toThrow(
      'the writer exited (code 3) before printing a line',
    );
  });
});
