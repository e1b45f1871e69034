import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeScriptBlocks } from '@kimi-tools/test-kit';
import { expect, it } from 'vitest';
import { importedPackages } from './imported-packages.js';

const PACKAGES = fileURLToPath(new URL('../../../packages', import.meta.url));

/** The packages npm users install, by directory: every package of `packages/` that is not private. */
function publishedPackages(): Array<{ dir: string; name: string }> {
  return readdirSync(PACKAGES, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const manifest = JSON.parse(readFileSync(path.join(PACKAGES, entry.name, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
    };
    return manifest.private ? [] : [{ dir: entry.name, name: manifest.name }];
  });
}

/**
 * The packages each `npm install` (or `npm i`) line of a README names, without the version asked for (`ai@^6` is
 * `ai`), a global install aside.
 */
function installedBy(readme: string): string[][] {
  return [...readme.matchAll(/^npm (?:install|i) (?!--global)([^#\n]*)/gm)].map((line) =>
    line[1]!
      .trim()
      .split(/\s+/)
      .map((spec) => spec.replace(/(?<=.)@.*$/, '')),
  );
}

it("every published package's README says how to install it", () => {
  const missing = publishedPackages().filter(({ dir, name }) => {
    const readme = readFileSync(path.join(PACKAGES, dir, 'README.md'), 'utf8');
    return !installedBy(readme).some((names) => names.includes(name));
  });
  expect(missing.map(({ name }) => name)).toEqual([]);
});

// Checking that a README names its own package was not enough: core's installed `@kimi-tools/core zod` while its
// Quick start imports `@kimi-tools/read`, which a user who copied both then lacked; and a later snippet may import
// what the Quick start does not (core's agent loop, `@kimi-tools/search`).
it("every published package's README installs what each of its snippets imports", async () => {
  const missing: string[] = [];
  for (const { dir } of publishedPackages()) {
    const file = path.join(PACKAGES, dir, 'README.md');
    const installed = new Set(installedBy(readFileSync(file, 'utf8')).flat());
    for (const { code, line } of await typeScriptBlocks(file)) {
      for (const name of importedPackages(code))
        if (!installed.has(name)) missing.push(`packages/${dir}/README.md:${line}: ${name}`);
    }
  }
  expect(missing).toEqual([]);
});
