/** The fields of a `package.json` the release reads and checks. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  homepage?: string;
  bugs?: { url?: string };
  repository?: { type?: string; url?: string; directory?: string };
  sideEffects?: boolean | string[];
  engines?: Record<string, string>;
  files?: string[];
  main?: string;
  module?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  publishConfig?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The fields that name other packages, in the order npm reads them. */
export const DEPENDENCY_FIELDS = [
  'dependencies',
  'peerDependencies',
  'optionalDependencies',
  'devDependencies',
] as const;

/** The packages a manifest needs at run time (what npm installs with it), with their ranges. */
export function runtimeDependencies(manifest: Manifest): Map<string, string> {
  return new Map(
    [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap((field) =>
      Object.entries(field ?? {}),
    ),
  );
}
