// Paths relative to the workspace root, as the scans and the rewinds name them: `/`-separated, `''` for the root.

/** The directory holding `path` (`''`: the root). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut === -1 ? '' : path.slice(0, cut);
}

/** The last component of `path`. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether `path` is `directory` or lies below it. */
export function isAtOrBelow(path: string, directory: string): boolean {
  return path === directory || path.startsWith(`${directory}/`);
}

/** The directories `path` lies in, shallowest first (the root left out). */
export function directoriesAbove(path: string): string[] {
  const directories: string[] = [];
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1))
    directories.push(path.slice(0, cut));
  return directories;
}
