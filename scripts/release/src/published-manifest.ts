import { DEPENDENCY_FIELDS, type Manifest } from './manifest.js';

/** What every published manifest of the repository agrees on. */
export interface ManifestExpectations {
  /** `git+https://github.com/<owner>/<repo>.git`: npm's provenance checks the package against this repository. */
  repositoryUrl: string;
  /** The Node.js range every package supports (`>=20.19`). */
  nodeRange: string;
  /** The licence of the repository (`MIT`). */
  license: string;
}

/** Keywords every package of the family has; a package needs at least one more, saying what it is. */
export const FAMILY_KEYWORDS: ReadonlySet<string> = new Set(['ai', 'agent', 'llm', 'tools', 'file']);

/** The export condition that points the workspace at sources the tarball does not hold. */
export const SOURCE_CONDITION = '@kimi-tools/source';

function hasCondition(value: unknown, condition: string): boolean {
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => key === condition || hasCondition(inner, condition));
}

/** An exports map without one condition: what `publishConfig.exports` holds, the workspace's map less its sources. */
export function withoutCondition(value: unknown, condition: string): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== condition)
      .map(([key, inner]) => [key, withoutCondition(inner, condition)]),
  );
}

/**
 * What is wrong with the manifest of a package as the registry serves it, one sentence per problem (none when it is
 * ready): `directory` is where the package lives in the repository (`packages/read`).
 */
export function publishedManifestProblems(
  manifest: Manifest,
  directory: string,
  expected: ManifestExpectations,
): string[] {
  const problems: string[] = [];
  const webUrl = /^git\+(https:\/\/github\.com\/[^/]+\/[^/]+)\.git$/.exec(expected.repositoryUrl)?.[1];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${name} is still ${range}`);
    }
  }
  if (!manifest.description) problems.push('it has no description');
  if (manifest.license !== expected.license) {
    problems.push(`its license is ${manifest.license}, not the repository's ${expected.license}`);
  }
  const repository = manifest.repository;
  if (
    repository?.type !== 'git' ||
    repository.url !== expected.repositoryUrl ||
    repository.directory !== directory
  ) {
    problems.push(
      `its repository is ${JSON.stringify(repository)}, not { type: git, url: ${expected.repositoryUrl}, directory: ${directory} }`,
    );
  }
  if (!webUrl)
    problems.push(`${expected.repositoryUrl} is not a GitHub repository, which npm provenance needs`);
  else {
    if (manifest.homepage !== `${webUrl}/tree/main/${directory}#readme`) {
      problems.push(`its homepage ${manifest.homepage} is not ${webUrl}/tree/main/${directory}#readme`);
    }
    if (manifest.bugs?.url !== `${webUrl}/issues`) problems.push(`its bugs url is not ${webUrl}/issues`);
  }
  if (manifest.publishConfig?.['access'] !== 'public') problems.push('publishConfig.access is not public');
  if (manifest.publishConfig?.['registry'] !== undefined) {
    problems.push(
      'publishConfig.registry sends it somewhere else than the registry the release publishes to',
    );
  }
  if (manifest.publishConfig?.['provenance'] === false)
    problems.push('publishConfig.provenance turns provenance off');
  const keywords = manifest.keywords ?? [];
  if (!keywords.some((keyword) => !FAMILY_KEYWORDS.has(keyword))) {
    problems.push(`its keywords ${JSON.stringify(keywords)} do not say what it is beyond the family's`);
  }
  if (manifest.engines?.['node'] !== expected.nodeRange) {
    problems.push(`engines.node is ${manifest.engines?.['node']}, not ${expected.nodeRange}`);
  }
  if (manifest.sideEffects !== false) problems.push('sideEffects is not false');
  if (hasCondition(manifest.exports, SOURCE_CONDITION)) {
    problems.push(
      `exports keeps the ${SOURCE_CONDITION} condition (publishConfig.exports must leave it out)`,
    );
  }
  return problems;
}
