import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** What a package's sources may import when the package loads (what a fresh process pays before any call). */
export interface LoadTimeRules {
  /** Modules only ever loaded on first use (imported for their types only, at load time). */
  loadedOnUse: readonly string[];
  /**
   * Modules a tool package's build bundles tree-shaken (zod, see `toolBuild` in tsup.shared.ts): imported as a
   * namespace (`import * as z`) or for types only, since esbuild cannot shake a namespace re-exported by name.
   */
  bundledAsNamespace?: readonly string[];
}

const VALUE_IMPORT = /^import (?!type )([^;]*?) from '([^']+)';/gms;

/**
 * The load-time imports of the `.ts` sources under `sourceDir` (tests and their `__fixtures__` aside) that break `rules`, as
 * `{file}: {clause} from '{module}'`; empty when the package loads only what it must.
 */
export async function loadTimeImportOffenders(sourceDir: string, rules: LoadTimeRules): Promise<string[]> {
  const entries = await readdir(sourceDir, { recursive: true, withFileTypes: true });
  const offenders: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    if (entry.parentPath.split(path.sep).includes('__fixtures__')) continue;
    const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, clause = '', specifier = ''] of text.matchAll(VALUE_IMPORT)) {
      const onUse = rules.loadedOnUse.includes(specifier);
      const notNamespace = rules.bundledAsNamespace?.includes(specifier) && !/^\* as \w+$/.test(clause);
      if (onUse || notNamespace) offenders.push(`${entry.name}: ${clause} from '${specifier}'`);
    }
  }
  return offenders.sort();
}
