import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { AnswerDeadline } from './answer-deadline.js';

// The clock the deadline runs on is vitest's: what passes is counted in steps, not waited for.
const LIMIT_MS = 1000;
let passed: number;
let deadline: AnswerDeadline;
beforeEach(() => {
  vi.useFakeTimers();
  passed = 0;
  deadline = new AnswerDeadline(LIMIT_MS, () => passed++);
});
afterEach(() => {
  vi.useRealTimers();
});

test('passes once when a request waits the limit with no answer, and not again', () => {
  deadline.sent();
  vi.advanceTimersByTime(LIMIT_MS - 1);
  expect(passed).toBe(0);
  vi.advanceTimersByTime(1);
  expect(passed).toBe(1);
  deadline.answered();
  deadline.sent();
  vi.advanceTimersByTime(10 * LIMIT_MS);
  expect(passed).toBe(1);
});

test('every answer starts the clock again: a long queue answered steadily never passes it', () => {
  for (let request = 0; request < 10; request++) deadline.sent();
  for (let request = 0; request < 9; request++) {
    vi.advanceTimersByTime(LIMIT_MS - 1);
    deadline.answered();
  }
  expect(passed).toBe(0);
  vi.advanceTimersByTime(LIMIT_MS);
  expect(passed).toBe(1);
});

test('leaves no timer once nothing waits, and a request sent later starts a fresh clock', () => {
  deadline.sent();
  deadline.sent();
  deadline.answered();
  expect(vi.getTimerCount()).toBe(1);
  deadline.answered();
  expect(vi.getTimerCount()).toBe(0);
  vi.advanceTimersByTime(10 * LIMIT_MS);
  deadline.sent();
  vi.advanceTimersByTime(LIMIT_MS - 1);
  expect(passed).toBe(0);
});

test('its timer never keeps the process running', () => {
  vi.useRealTimers();
  const real = new AnswerDeadline(60_000, () => passed++);
  const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  real.sent();
  expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout')).toHaveLength(before);
  real.answered();
});
