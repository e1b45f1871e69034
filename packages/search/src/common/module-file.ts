import { fileURLToPath } from 'node:url';

/**
 * The file of this package's code that is running. The CommonJS build has `__filename`, and its stand-in for
 * `import.meta.url` misreads a `#` or `%` in the install path as URL syntax; the ES module build has
 * `import.meta.url`.
 */
export function moduleFile(): string {
  return typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
}
