// Glob matching in time bounded by (pattern length × path length), for the syntax almost every pattern uses:
// literals, `*`, `?`, `[...]` classes and `**` segments. micromatch compiles a pattern to a backtracking regular
// expression, in which `*a*a*a*a*a*a*a*ab` against a 200-character name takes longer than anyone waits; this
// matcher backtracks only to the last `*` (or `**` segment), which is enough because each other token consumes
// exactly one character (or segment).

/** One character test of a segment pattern; `star` is any run of characters. */
type Token = 'star' | ((code: number) => boolean);

/** A compiled path segment: its tokens, or `globstar` for a whole `**` segment (any number of segments). */
type Segment = 'globstar' | Token[];

/**
 * Characters whose presence hands the pattern to micromatch: extglobs, negated patterns, POSIX classes, and braces
 * left unexpanded (`{..a,a}`, which brace expansion refuses: micromatch may still read it as alternatives).
 */
const UNSUPPORTED = /[()|{}]|^!|\[\[:/;

/** `pattern` without its escaped characters (`\(`, `\{`: literal ones): what is left is its syntax. */
export function withoutEscapes(pattern: string): string {
  return pattern.includes('\\') ? pattern.replace(/\\[\s\S]/g, '') : pattern;
}

/** Whether `pattern` uses syntax this matcher leaves to micromatch; an escaped character is a literal one. */
function leftToMicromatch(pattern: string): boolean {
  return UNSUPPORTED.test(withoutEscapes(pattern));
}

function matchesAny(): boolean {
  return true;
}

/** The tokens of one segment, or `null` when it uses syntax this matcher leaves to micromatch. */
function compileSegmentTokens(segment: string): Token[] | null {
  const tokens: Token[] = [];
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index] as string;
    if (character === '*') {
      if (tokens[tokens.length - 1] !== 'star') tokens.push('star');
    } else if (character === '?') {
      tokens.push(matchesAny);
    } else if (character === '[') {
      const parsed = parseClass(segment, index);
      if (parsed === null) return null;
      tokens.push(parsed.test);
      index = parsed.end;
    } else if (character === '\\') {
      const next = segment.charCodeAt(++index);
      if (Number.isNaN(next)) return null;
      tokens.push((code) => code === next);
    } else {
      const code = character.charCodeAt(0);
      tokens.push((other) => other === code);
    }
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!a]`/`[^a]` starting at `open`: its test and the index of its `]`, or `null`. */
function parseClass(segment: string, open: number): { test: (code: number) => boolean; end: number } | null {
  let index = open + 1;
  const negated = segment[index] === '!' || segment[index] === '^';
  if (negated) index++;
  const ranges: Array<[number, number]> = [];
  let first = true;
  for (; index < segment.length; index++) {
    const character = segment[index] as string;
    if (character === ']' && !first) {
      const test = (code: number) => ranges.some(([low, high]) => code >= low && code <= high) !== negated;
      return { test, end: index };
    }
    first = false;
    let low = character === '\\' ? segment.charCodeAt(++index) : character.charCodeAt(0);
    let high = low;
    if (segment[index + 1] === '-' && index + 2 < segment.length && segment[index + 2] !== ']') {
      high = segment[index + 2] === '\\' ? segment.charCodeAt(index + 3) : segment.charCodeAt(index + 2);
      index += segment[index + 2] === '\\' ? 3 : 2;
    }
    if (Number.isNaN(low) || Number.isNaN(high)) return null;
    if (low > high) [low, high] = [high, low];
    ranges.push([low, high]);
  }
  return null;
}

/** Whether `tokens` match all of `text`: two pointers, backtracking only to the last star. */
function matchTokens(tokens: readonly Token[], text: string): boolean {
  let position = 0;
  let token = 0;
  let starToken = -1;
  let starPosition = 0;
  while (position < text.length) {
    const current = tokens[token];
    if (current === 'star') {
      starToken = token++;
      starPosition = position;
    } else if (current !== undefined && current(text.charCodeAt(position))) {
      token++;
      position++;
    } else if (starToken >= 0) {
      token = starToken + 1;
      position = ++starPosition;
    } else {
      return false;
    }
  }
  while (tokens[token] === 'star') token++;
  return token === tokens.length;
}

/** Whether the compiled segments match the path's segments, `globstar` taking any number of them. */
function matchSegments(segments: readonly Segment[], names: readonly string[]): boolean {
  let name = 0;
  let segment = 0;
  let starSegment = -1;
  let starName = 0;
  while (name < names.length) {
    const current = segments[segment];
    if (current === 'globstar') {
      starSegment = segment++;
      starName = name;
    } else if (current !== undefined && matchTokens(current, names[name] as string)) {
      segment++;
      name++;
    } else if (starSegment >= 0) {
      segment = starSegment + 1;
      name = ++starName;
    } else {
      return false;
    }
  }
  while (segments[segment] === 'globstar') segment++;
  return segment === segments.length;
}

/**
 * A matcher for one path segment (no `/`), or `null` when the segment uses syntax left to micromatch. Wildcards match
 * dot files, case matters.
 */
export function compileSegmentMatcher(segment: string): ((name: string) => boolean) | null {
  if (leftToMicromatch(segment)) return null;
  const simple = oneStarMatcher(segment);
  if (simple !== null) return simple;
  const tokens = compileSegmentTokens(segment);
  return tokens === null ? null : (name) => name.length > 0 && matchTokens(tokens, name);
}

/** Characters that make a segment more than literals around at most one `*`. */
const BEYOND_ONE_STAR = /[?[\\]|\*.*\*/;

/**
 * The commonest segments (`*.ts`, `index.*`, `README.md`) as string comparisons: the walk tests every file name
 * against the pattern's last segment, and the token loop costs a call per character. On the 44,452 file names of the
 * bench corpus, `*.ts` took 8.9 ms a pass through the tokens and 1.1 ms this way.
 */
function oneStarMatcher(segment: string): ((name: string) => boolean) | null {
  if (segment === '' || BEYOND_ONE_STAR.test(segment)) return null;
  const star = segment.indexOf('*');
  if (star < 0) return (name) => name === segment;
  const head = segment.slice(0, star);
  const tail = segment.slice(star + 1);
  const shortest = Math.max(1, head.length + tail.length);
  return (name) => name.length >= shortest && name.startsWith(head) && name.endsWith(tail);
}

/**
 * A matcher for `/`-separated relative paths, or `null` when the pattern uses syntax left to micromatch (extglobs,
 * a leading `!`, POSIX classes, unexpanded braces). Same rules as micromatch with `dot: true`: `*` and `?` stay within
 * a segment, a `**` segment spans any number of segments (none too), `**` inside a segment is `*`.
 */
export function compilePathMatcher(pattern: string): ((relativePath: string) => boolean) | null {
  if (leftToMicromatch(pattern)) return null;
  const segments: Segment[] = [];
  for (const segment of pattern.split('/')) {
    if (segment === '**') {
      if (segments[segments.length - 1] !== 'globstar') segments.push('globstar');
      continue;
    }
    const tokens = compileSegmentTokens(segment);
    if (tokens === null || tokens.length === 0) return null;
    segments.push(tokens);
  }
  return (relativePath) => matchSegments(segments, relativePath.split('/'));
}
