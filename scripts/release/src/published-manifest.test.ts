import { describe, expect, test } from 'vitest';
import type { Manifest } from './manifest.js';
import { publishedManifestProblems, SOURCE_CONDITION, withoutCondition } from './published-manifest.js';

const expected = {
  repositoryUrl: 'git+https://github.com/owner/repo.git',
  nodeRange: '>=20.19',
  license: 'MIT',
};

const ready: Manifest = {
  name: '@kimi-tools/read',
  version: '1.0.0',
  description: 'ReadFile for AI agents.',
  keywords: ['ai', 'agent', 'llm', 'tools', 'file', 'read-file'],
  license: 'MIT',
  homepage: 'https://github.com/owner/repo/tree/main/packages/read#readme',
  bugs: { url: 'https://github.com/owner/repo/issues' },
  repository: { type: 'git', url: 'git+https://github.com/owner/repo.git', directory: 'packages/read' },
  sideEffects: false,
  engines: { node: '>=20.19' },
  exports: { '.': { import: './dist/index.js', require: './dist/index.cjs' } },
  publishConfig: { access: 'public' },
  peerDependencies: { '@kimi-tools/core': '^1.0.0' },
  devDependencies: { '@kimi-tools/test-kit': '0.0.0' },
};

const problems = (changes: Partial<Manifest>) =>
  publishedManifestProblems({ ...ready, ...changes }, 'packages/read', expected);

describe('publishedManifestProblems', () => {
  test('finds nothing wrong with a manifest ready for users and for provenance', () => {
    expect(problems({})).toEqual([]);
  });

  test('names every workspace: range left in any dependency field', () => {
    expect(
      problems({
        peerDependencies: { '@kimi-tools/core': 'workspace:^' },
        devDependencies: { '@kimi-tools/test-kit': 'workspace:*' },
      }),
    ).toEqual([
      'peerDependencies.@kimi-tools/core is still workspace:^',
      'devDependencies.@kimi-tools/test-kit is still workspace:*',
    ]);
  });

  test('names a licence, a repository, a homepage and bugs that are not the repository’s', () => {
    expect(
      problems({
        license: 'ISC',
        repository: {
          type: 'git',
          url: 'git+https://github.com/owner/repo.git',
          directory: 'packages/other',
        },
        homepage: 'https://example.com',
        bugs: {},
      }),
    ).toEqual([
      "its license is ISC, not the repository's MIT",
      'its repository is {"type":"git","url":"git+https://github.com/owner/repo.git","directory":"packages/other"}, not { type: git, url: git+https://github.com/owner/repo.git, directory: packages/read }',
      'its homepage https://example.com is not https://github.com/owner/repo/tree/main/packages/read#readme',
      'its bugs url is not https://github.com/owner/repo/issues',
    ]);
  });

  test('names what keeps the package from being published publicly with provenance', () => {
    expect(problems({ publishConfig: { registry: 'https://example.com/', provenance: false } })).toEqual([
      'publishConfig.access is not public',
      'publishConfig.registry sends it somewhere else than the registry the release publishes to',
      'publishConfig.provenance turns provenance off',
    ]);
    expect(
      publishedManifestProblems(ready, 'packages/read', {
        ...expected,
        repositoryUrl: 'https://gitlab.com/o/r',
      }),
    ).toContain('https://gitlab.com/o/r is not a GitHub repository, which npm provenance needs');
  });

  test('names family-only keywords, another Node range, side effects, no description', () => {
    expect(
      problems({ keywords: ['ai', 'tools'], engines: { node: '>=18' }, sideEffects: true, description: '' }),
    ).toEqual([
      'it has no description',
      'its keywords ["ai","tools"] do not say what it is beyond the family\'s',
      'engines.node is >=18, not >=20.19',
      'sideEffects is not false',
    ]);
  });

  test('names an exports map that still points at the sources', () => {
    expect(
      problems({ exports: { '.': { [SOURCE_CONDITION]: './src/index.ts', import: './dist/index.js' } } }),
    ).toEqual(['exports keeps the @kimi-tools/source condition (publishConfig.exports must leave it out)']);
  });
});

describe('withoutCondition', () => {
  test('removes one condition at every depth and keeps the rest in order', () => {
    const exports = {
      '.': { [SOURCE_CONDITION]: './src/index.ts', import: { types: './a.d.ts', default: './a.js' } },
      './sub': { [SOURCE_CONDITION]: './src/sub.ts', require: './sub.cjs' },
      './package.json': './package.json',
    };
    expect(withoutCondition(exports, SOURCE_CONDITION)).toEqual({
      '.': { import: { types: './a.d.ts', default: './a.js' } },
      './sub': { require: './sub.cjs' },
      './package.json': './package.json',
    });
  });
});
