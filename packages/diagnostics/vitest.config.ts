import { packageTestConfig, WAITING_SUITE_WORKERS } from '../../vitest.shared.js';

// The language servers' tests mostly wait on the servers (their start, their quiet time): two files run at once.
export default packageTestConfig({ test: { maxWorkers: WAITING_SUITE_WORKERS } });
