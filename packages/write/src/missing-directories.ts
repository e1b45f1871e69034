import path from 'node:path';

/** How a created directory is listed: relative to the work dir with `/`, or absolute when outside it. */
export function displayDirectory(directory: string, realWorkDir: string): string {
  const relative = path.relative(realWorkDir, directory);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return directory;
  return relative.split(path.sep).join('/');
}
