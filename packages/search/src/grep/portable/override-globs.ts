import { braceAlternatives, loadPatternEngine, pathMatcher } from '../../glob/glob-pattern.js';
import { VCS_DIRECTORIES } from '../../limits.js';

/** What the globs say of a path: searched whatever the ignore files say, left out, or nothing. */
export type OverrideVerdict = 'include' | 'exclude' | 'none';

interface OverrideGlob {
  /** `!glob`: what it matches is left out. */
  readonly exclude: boolean;
  /** Matches directories only (a trailing `/`). */
  readonly directoryOnly: boolean;
  /** A glob with a `/` is matched against the whole relative path; without, against the name alone. */
  readonly anchored: boolean;
  readonly matches: (text: string) => boolean;
}

/**
 * Grep's `glob` and the version-control folders as the portable search applies them, as ripgrep applies its `--glob`
 * overrides: the last glob that matches a path decides (the version-control folders come last, so a glob cannot bring
 * them back); a path no glob matches is left out when some glob includes, unless it is a directory; an included path
 * is searched even when an ignore file or the `type` leaves it out.
 */
export class OverrideGlobs {
  private constructor(
    private readonly globs: readonly OverrideGlob[],
    /** Some glob includes: a file no glob matches is left out. */
    readonly whitelists: boolean,
  ) {}

  /** The overrides of a search with Grep's `glob` argument (`null`: none). */
  static async create(userGlob: string | null): Promise<OverrideGlobs> {
    const globs: OverrideGlob[] = [];
    if (userGlob !== null) globs.push(...(await compileOverride(userGlob)));
    for (const name of VCS_DIRECTORIES) {
      globs.push({ exclude: true, directoryOnly: false, anchored: false, matches: (text) => text === name });
    }
    return new OverrideGlobs(
      globs,
      globs.some((glob) => !glob.exclude),
    );
  }

  /** `relativePath`: `/`-separated from the search directory; `name`: its last segment. */
  verdict(relativePath: string, name: string, isDirectory: boolean): OverrideVerdict {
    for (let index = this.globs.length - 1; index >= 0; index--) {
      const glob = this.globs[index] as OverrideGlob;
      if (glob.directoryOnly && !isDirectory) continue;
      if (glob.matches(glob.anchored ? relativePath : name)) return glob.exclude ? 'exclude' : 'include';
    }
    return this.whitelists && !isDirectory ? 'exclude' : 'none';
  }
}

/** One `--glob` argument: each alternative of its braces, anchored or not on its own. */
async function compileOverride(argument: string): Promise<OverrideGlob[]> {
  const exclude = argument.startsWith('!');
  const glob = exclude ? argument.slice(1) : argument;
  const micromatch = await loadPatternEngine(glob);
  const alternatives = braceAlternatives(glob, micromatch) ?? [glob];
  return alternatives.map((alternative) => {
    let text = alternative;
    const directoryOnly = text.length > 1 && text.endsWith('/');
    if (directoryOnly) text = text.slice(0, -1);
    let anchored = text.includes('/');
    if (text.startsWith('/')) text = text.slice(1);
    // `**/name` matches `name` at any depth: the name alone decides.
    if (text.startsWith('**/') && !text.slice(3).includes('/')) {
      text = text.slice(3);
      anchored = false;
    }
    return { exclude, directoryOnly, anchored, matches: pathMatcher(text, micromatch) };
  });
}
