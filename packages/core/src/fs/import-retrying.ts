import { nodeModule, nodeUrl } from './load-on-use.js';

/** Fresh URLs {@link importRetrying} tries for one module over the life of the process, one per call at most. */
export const MAX_IMPORT_ATTEMPTS = 64;

// Process-wide on purpose, like Node's own module map it works around: per module URL, the module once loaded and
// the number of attempts made so far.
const loadedModules = new Map<string, unknown>();
const attemptsMade = new Map<string, number>();

/**
 * Loads a module that does not keep a transient failure forever. Node keeps a module whose loading failed (a
 * dependency not found while the process was out of file descriptors, say) and rethrows that error for every later
 * import of the same URL, for the life of the process. So `load()` is tried first, and each call after a failure loads
 * the module at `url` under a new URL (`?retry=1`, `?retry=2`...), once, until one loads; that one is kept and
 * reused. A module that never loads costs one attempt per call, and no more than {@link MAX_IMPORT_ATTEMPTS} URLs in
 * all. Without a `url`, `load()` is simply called again.
 */
export async function importRetrying<T>(load: () => Promise<T>, url: string | undefined): Promise<T> {
  if (url === undefined) return load();
  if (loadedModules.has(url)) return loadedModules.get(url) as T;
  const attempt = Math.min(attemptsMade.get(url) ?? 0, MAX_IMPORT_ATTEMPTS);
  attemptsMade.set(url, attempt + 1);
  const loaded =
    attempt === 0
      ? await load()
      : ((await import(`${url}${url.includes('?') ? '&' : '?'}retry=${attempt}`)) as T);
  loadedModules.set(url, loaded);
  return loaded;
}

/**
 * The file URL `specifier` loads from, resolved as the module at `fromUrl` (its `import.meta.url`) would resolve it:
 * the `url` {@link importRetrying} needs. Resolving loads nothing, and a failed resolution is not kept.
 */
export function resolvedModuleUrl(specifier: string, fromUrl: string): string {
  return nodeUrl().pathToFileURL(nodeModule().createRequire(fromUrl).resolve(specifier)).href;
}
