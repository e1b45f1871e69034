import { fileURLToPath } from 'node:url';

/** The absolute path of a committed fixture of packages/media/fixtures (see its README for where each comes from). */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
}
