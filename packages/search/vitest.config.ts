import { packageTestConfig, WAITING_SUITE_WORKERS } from '../../vitest.shared.js';

// Half of the suite waits on other processes (ripgrep, the portable search's worker, an OpenSSH server for the
// remote search): two files run at once.
export default packageTestConfig({ test: { maxWorkers: WAITING_SUITE_WORKERS } });
