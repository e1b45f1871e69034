/**
 * The most each published package's tarball may weigh, packed (gzipped, as the registry stores it), in bytes.
 * The figures leave room for the growth of a few releases; a package over its budget fails the rehearsal, and the
 * change that makes it heavier says why in the commit that raises the figure. A new package needs its line:
 * `pnpm new-tool` adds one with the budget of its sample, `NEW_PACKAGE_BUDGET` in scripts/new-tool/src/size-budget.ts.
 */
export const PACKED_SIZE_BUDGETS: Readonly<Record<string, number>> = {
  // 253 kB before the file-system seam; the seam, the in-memory backend and the commit of several files took it to
  // 300 kB; the permission rules, shaped approvals (hunks, edited content) and lstatMany's worker to 355 kB.
  '@kimi-tools/core': 390_000,
  '@kimi-tools/read': 75_000,
  '@kimi-tools/write': 65_000,
  '@kimi-tools/replace': 120_000,
  // 100 kB before the portable search (Rust regex translated to JavaScript, ripgrep's walk, its worker): 131 kB.
  '@kimi-tools/search': 150_000,
  '@kimi-tools/media': 85_000,
  '@kimi-tools/notebook': 65_000,
  '@kimi-tools/patch': 75_000,
  // 80 kB at first; the scan index and packs took it to 106 kB.
  '@kimi-tools/checkpoints': 125_000,
  // 59.5 kB until names that are not UTF-8 (the host's listing program sends their bytes as escapes, SFTP refuses a
  // path holding one, a listing waits for the program rather than take SFTP's U+FFFD) took it to 60.5 kB.
  '@kimi-tools/ssh': 70_000,
  '@kimi-tools/diagnostics': 35_000,
  // Past 8.0 kB (8,024 bytes) once its Quick start created the runtime with `outside: 'deny'` and said why: the
  // README is packed too.
  '@kimi-tools/ai-sdk': 9_000,
  '@kimi-tools/openai': 8_000,
  '@kimi-tools/anthropic': 6_000,
  // 19.1 kB until the approval form showed paths and control characters escaped (1.4 kB more unpacked) took it to
  // 23.7 kB: its CommonJS and ES builds, similar code, now lie just past gzip's 32 KiB window from each other in the
  // tarball, so the second no longer compresses against the first. 24.7 kB until AnsweringStdioTransport (the lines
  // the SDK's stdio transport dropped unanswered, each answered in words) took it to 32.1 kB.
  '@kimi-tools/mcp': 38_000,
  '@kimi-tools/mcp-server': 20_000,
  // What `pnpm new-tool` generates: the sample tool with zod bundled.
  '@kimi-tools/file-facts': 60_000,
};
