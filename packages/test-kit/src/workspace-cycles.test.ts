import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every field pnpm follows when it orders the workspace (and warns about a cycle on every install). */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** The workspace's package directories, from the globs of `pnpm-workspace.yaml` (`dir` or `dir/*`). */
function packageDirectories(): string[] {
  const yaml = readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...(/^packages:\n((?:\s+-.*\n)*)/m.exec(yaml)?.[1] ?? '').matchAll(/-\s*(\S+)/g)].map(
    (match) => match[1] ?? '',
  );
  return globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(path.join(ROOT, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(glob.slice(0, -2), entry.name))
      : [glob],
  );
}

/** Each workspace package's name and the workspace packages it names in any dependency field. */
function workspaceGraph(): Map<string, string[]> {
  const manifests = packageDirectories()
    .map((directory) => path.join(ROOT, directory, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  const names = new Set(manifests.map((manifest) => manifest['name'] as string));
  return new Map(
    manifests.map((manifest) => [
      manifest['name'] as string,
      DEPENDENCY_FIELDS.flatMap((field) => Object.keys((manifest[field] ?? {}) as object)).filter((name) =>
        names.has(name),
      ),
    ]),
  );
}

/** The cycles of a graph, each as the path that closes it (`a → b → a`), by depth-first search. */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const visit = (name: string, trail: string[]) => {
    const at = trail.indexOf(name);
    if (at >= 0) {
      found.push([...trail.slice(at), name].join(' → '));
      return;
    }
    if (done.has(name)) return;
    for (const next of graph.get(name) ?? []) visit(next, [...trail, name]);
    done.add(name);
  };
  for (const name of graph.keys()) visit(name, []);
  return found;
}

// The kit is used by core's tests, so it may not declare core: every fresh install warned `There are cyclic workspace
// dependencies: packages/core, packages/test-kit` (issue 29.13). The root provides core to the kit's sources.
it('no workspace package depends on itself through others, in any field pnpm follows', () => {
  const graph = workspaceGraph();
  expect(graph.get('@kimi-tools/core')).toContain('@kimi-tools/test-kit');
  expect(cycles(graph)).toEqual([]);
});
