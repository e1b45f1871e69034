// The names of the test backends, alone in a file without imports: the vitest config (vitest.shared.ts) reads them too.

/** The backends the tools' suites run on: the local disk, a workspace in memory, a loopback OpenSSH server. */
export const TEST_BACKENDS = ['local', 'memory', 'ssh'] as const;

/** One of {@link TEST_BACKENDS}. */
export type TestBackendName = (typeof TEST_BACKENDS)[number];

/** The variable that picks the backend of a test run: `KIMI_TEST_FS=local|memory|ssh` (default `local`). */
export const TEST_BACKEND_VARIABLE = 'KIMI_TEST_FS';
