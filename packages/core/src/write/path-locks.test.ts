import { describe, expect, it } from 'vitest';
import { PathLocks } from './path-locks.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('PathLocks', () => {
  it('runs tasks on one path one at a time, in order, and forgets idle paths', async () => {
    const locks = new PathLocks();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      locks.run('/a', task('1')),
      locks.run('/a', task('2')),
      locks.run('/a', task('3')),
    ]);
    expect(results).toEqual(['1', '2', '3']);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    await tick();
    expect(locks.isBusy('/a')).toBe(false);
  });

  it('keeps going after a failing task and lets other paths run concurrently', async () => {
    const locks = new PathLocks();
    const events: string[] = [];
    const failing = locks.run('/a', async () => {
      await tick();
      events.push('a failed');
      throw new Error('boom');
    });
    const next = locks.run('/a', async () => {
      events.push('a next');
      return 2;
    });
    const other = locks.run('/b', async () => {
      events.push('b');
      return 3;
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe(2);
    expect(await other).toBe(3);
    expect(events).toEqual(['b', 'a failed', 'a next']);
  });
});
