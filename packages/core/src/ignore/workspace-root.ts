import type { ToolRuntime } from '../runtime/runtime.js';
import { isWithinDirectory } from '../path/containment.js';

/** The innermost workspace root (real path) holding `realPath`; the work dir when none does. */
export async function workspaceRootOf(runtime: ToolRuntime, realPath: string): Promise<string> {
  const roots = await runtime.paths.workspaceRoots();
  const holding = roots.filter((root) => isWithinDirectory(realPath, root));
  holding.sort((a, b) => b.length - a.length);
  return holding[0] ?? roots[0] ?? runtime.workDir;
}
