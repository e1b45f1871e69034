import { pathApiFor } from './platform-path.js';

/**
 * True when `child` is `parent` or lies under it, compared component by component (`/a/project-evil` is not inside
 * `/a/project`). Both paths must be absolute. Case-insensitive on Windows (as `path.win32.relative` is).
 */
export function isWithinDirectory(
  child: string,
  parent: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const pathApi = pathApiFor(platform);
  const relative = pathApi.relative(parent, child);
  if (relative === '') return true;
  if (pathApi.isAbsolute(relative)) return false; // another drive on Windows
  return relative !== '..' && !relative.startsWith(`..${pathApi.sep}`);
}
