import { packageTestConfig, WAITING_SUITE_WORKERS } from '../../vitest.shared.js';

// The suite mostly waits on its OpenSSH servers (one per file: round trips, keepalives, a delaying proxy, locks left
// to go stale): two files run at once.
export default packageTestConfig({ test: { maxWorkers: WAITING_SUITE_WORKERS } });
