import micromatch from 'micromatch';

/** Tests one `/`-separated subject against a fixed set of globs. */
export type GlobTest = (subject: string) => boolean;

/**
 * Compiles globs once (micromatch semantics, dot files matched by wildcards) into a test that is true when any glob
 * matches. Compiling up front matters: Grep and Glob test every file they walk.
 */
export function compileGlobs(patterns: readonly string[], nocase: boolean): GlobTest {
  const tests = patterns.map((pattern) => micromatch.matcher(pattern, { dot: true, nocase }));
  if (tests.length === 0) return () => false;
  return (subject) => tests.some((test) => test(subject));
}
