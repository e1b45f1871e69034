import path from 'node:path';

/** The `node:path` flavour that matches a platform: Windows rules for `win32`, POSIX rules otherwise. */
export function pathApiFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}
