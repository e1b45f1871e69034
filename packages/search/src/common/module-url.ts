import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const requireFromSearch = createRequire(import.meta.url);

/**
 * The file URL a dependency loads from, for `importRetrying`: Node keeps an `import()` that failed (out of file
 * descriptors for a moment, say) failed for the life of the process, so a retry must load the module under another
 * URL. Resolving reads no module; a failed resolution is not kept.
 */
export function moduleUrl(specifier: string): string {
  return pathToFileURL(requireFromSearch.resolve(specifier)).href;
}
