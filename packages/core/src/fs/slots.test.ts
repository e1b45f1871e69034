import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('runs at most its size at once, the others in the order they came, and frees a slot when a task throws', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (index: number) => async () => {
      started.push(index);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (index === 1) throw new Error('task 1 failed');
      return index;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((index) => slots.run(task(index))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    await expect(slots.run(async () => 'free again')).resolves.toBe('free again');
  });
});
