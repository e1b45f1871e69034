import { defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';

/** Imports Markdown as text in tests, as tsup's `.md` loader does for the bundles. */
const markdownAsText = {
  name: 'markdown-as-text',
  transform(code: string, id: string) {
    if (!id.endsWith('.md')) return undefined;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

/**
 * The test config of one package: only its own tests (the root config lists every project), Markdown as text, and
 * timeouts that hold on a loaded two-core machine (tests assert behaviour, never durations).
 */
export function packageTestConfig(overrides: ViteUserConfig = {}): ViteUserConfig {
  const base = defineConfig({
    plugins: [markdownAsText],
    test: { include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
  });
  return mergeConfig(base, overrides);
}
