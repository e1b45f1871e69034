import { defineConfig } from 'vitest/config';

// Scopes `vitest` run inside this package to this package (the root config lists every project), and imports
// Markdown as text, as tsup's `.md` loader does for the bundles.
export default defineConfig({
  plugins: [
    {
      name: 'markdown-as-text',
      transform(code, id) {
        if (!id.endsWith('.md')) return undefined;
        return { code: `export default ${JSON.stringify(code)};`, map: null };
      },
    },
  ],
  test: { include: ['src/**/*.test.ts'] },
});
