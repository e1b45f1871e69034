// A quick, conservative test of whether any rule of an ignore file that names a path (a `/` before its end) could
// match a given path. Most entries of a tree can match none of them, and for those the verdict of the basename rules
// alone — cached per name — is the whole answer; only the rest pay for the full rule set. The rules are indexed by
// their first literal segment (anchored rules) or their last one, so an entry looks only at the few rules that could
// concern it: the three root ignore files of the corpus `pnpm bench glob` runs on hold about 60 path rules.

/** Characters that make a gitignore segment something other than a literal name. */
const WILDCARD = /[*?[\]\\]/;

/**
 * `true` when the entry `name` of `localDir` (relative to the rules' directory; `''` for that directory itself) might
 * match; `false` only when it cannot.
 */
type PathRuleTest = (localDir: string, name: string) => boolean;

/** Whether a rule line, trimmed as the existing checks trim it, has a `/` before its end (a rule on paths). */
export function isPathRule(line: string): boolean {
  const body = line.startsWith('!') ? line.slice(1) : line;
  return body.replace(/\/+$/, '').includes('/');
}

/**
 * What one raw line of an ignore file is: nothing (blank, or a comment: `#` first, as git reads it; ` #a/b` is a
 * pattern), a rule on paths, or a rule on basenames.
 */
export function ruleLineKind(raw: string): 'none' | 'path' | 'basename' {
  const line = raw.trim();
  if (line === '' || raw.startsWith('#')) return 'none';
  return isPathRule(line) ? 'path' : 'basename';
}

/** A segment of two or more stars alone: git and the `ignore` package read `***` as `**`. */
function isGlobstar(segment: string): boolean {
  return /^\*{2,}$/.test(segment);
}

/** One path rule's segments, and where it can be looked up. */
interface IndexedRule {
  /** The first segment when literal (rules on paths are anchored to the rules' directory). */
  first: string | null;
  /** The last segment when literal. */
  last: string | null;
  test: PathRuleTest;
}

function isLiteral(segment: string): boolean {
  return segment !== '' && !WILDCARD.test(segment);
}

/** What one segment of a rule asks of one name; `null` when it accepts any name. */
type SegmentTest = ((name: string) => boolean) | null;

/** Equal to a literal, a literal prefix or suffix around `*`, or nothing (`null`). */
function segmentTest(segment: string): SegmentTest {
  if (isLiteral(segment)) return (name) => name === segment;
  const star = segment.indexOf('*');
  const head = segment.slice(0, star);
  const tail = segment.slice(star + 1);
  if (star > 0 || (star === 0 && tail !== '')) {
    if (!WILDCARD.test(head) && !WILDCARD.test(tail)) {
      return (name) =>
        name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail);
    }
  }
  return null;
}

/** How many `/`-separated segments a path has, without splitting it. */
export function segmentCount(localPath: string): number {
  let count = 1;
  for (let slash = localPath.indexOf('/'); slash >= 0; slash = localPath.indexOf('/', slash + 1)) count++;
  return count;
}

/**
 * The constraint one path rule puts on the paths it can match (the `ignore` package tests a rule on the path itself,
 * its parents being the walk's business): without `**`, exactly as many segments as the rule, each fitting its own;
 * with `**`, the segments before the first `**` fit the path's first ones and those after the last fit its last ones.
 */
function indexRule(raw: string): IndexedRule {
  // Leading spaces are part of a gitignore pattern, and escapes change what a character means: no shortcut then.
  if (/^\s/.test(raw) || raw.includes('\\')) return { first: null, last: null, test: () => true };
  const line = raw.trim();
  const body = (line.startsWith('!') ? line.slice(1) : line).replace(/\/+$/, '');
  const segments = body.split('/').filter((segment, index) => index > 0 || segment !== '');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return { first: null, last: null, test: () => true };
  }
  const firstGlobstar = segments.findIndex(isGlobstar);
  let lastGlobstar = segments.length - 1;
  while (lastGlobstar >= 0 && !isGlobstar(segments[lastGlobstar] as string)) lastGlobstar--;
  const lead = (firstGlobstar < 0 ? segments : segments.slice(0, firstGlobstar)).map(segmentTest);
  const trail = firstGlobstar < 0 ? [] : segments.slice(lastGlobstar + 1).map(segmentTest);
  const exact = firstGlobstar < 0;
  const first = segments[0] !== undefined && isLiteral(segments[0]) ? segments[0] : null;
  const lastSegment = segments[segments.length - 1];
  const last = lastSegment !== undefined && isLiteral(lastSegment) ? lastSegment : null;
  // Cheap checks first: the last name, then the literal start, the number of segments, and only then each segment.
  const nameTest = (exact ? lead[lead.length - 1] : trail[trail.length - 1]) ?? null;
  const literalLead: string[] = [];
  for (const segment of segments) {
    if (!isLiteral(segment)) break;
    literalLead.push(segment);
  }
  const prefix =
    literalLead.length > 0 && literalLead.length < segments.length ? `${literalLead.join('/')}/` : '';
  // Segments are found by index rather than by splitting the path: a rule such as `**/.yarn/*` looks at every path
  // of its tree, and an array of segments for each was most of the cost of ignore matching on the bench corpus.
  const test: PathRuleTest = (localDir, name) => {
    if (nameTest !== null && !nameTest(name)) return false;
    // Built only for an entry whose name fits: most entries stop at the line above.
    const localPath = localDir === '' ? name : `${localDir}/${name}`;
    // The path lies below the literal start, or is its last folder (`prefix` is that folder and a `/`).
    const isPrefixFolder = localPath.length + 1 === prefix.length && prefix.startsWith(localPath);
    if (!localPath.startsWith(prefix) && !isPrefixFolder) return false;
    const count = segmentCount(localPath);
    if (exact ? count !== lead.length : count < lead.length + trail.length) return false;
    let start = 0;
    for (const segment of lead) {
      const slash = localPath.indexOf('/', start);
      const end = slash < 0 ? localPath.length : slash;
      if (segment !== null && !segment(localPath.slice(start, end))) return false;
      start = end + 1;
    }
    let end = localPath.length;
    for (let index = trail.length - 1; index >= 0; index--) {
      const begin = localPath.lastIndexOf('/', end - 1) + 1;
      const segment = trail[index] as SegmentTest;
      if (segment !== null && !segment(localPath.slice(begin, end))) return false;
      end = begin - 1;
    }
    return true;
  };
  return { first, last, test };
}

/** Tests kept by the literal last segment of their rules, and those of rules without one. */
interface RuleBucket {
  byLast: Map<string, PathRuleTest[]>;
  others: PathRuleTest[];
}

function addTo(map: Map<string, PathRuleTest[]>, key: string, test: PathRuleTest): void {
  const tests = map.get(key);
  if (tests === undefined) map.set(key, [test]);
  else tests.push(test);
}

function addToBucket(map: Map<string, RuleBucket>, key: string, rule: IndexedRule): void {
  let bucket = map.get(key);
  if (bucket === undefined) {
    bucket = { byLast: new Map(), others: [] };
    map.set(key, bucket);
  }
  if (rule.last !== null) addTo(bucket.byLast, rule.last, rule.test);
  else bucket.others.push(rule.test);
}

/**
 * For the entries of one directory (`localDir`, relative to the rules' directory; `''` for that directory itself): a
 * test of whether a path rule might match the entry `name`, or `null` when none can match any entry there. What
 * depends on the directory alone is looked up once for all its entries.
 */
export type PathRuleFilter = (localDir: string) => ((name: string) => boolean) | null;

/**
 * A filter over every path rule of the given ignore-file texts, or `null` when they hold none. Rules with a literal
 * first segment are looked up by it and then by their literal last one: babel's root `.gitignore` has about 35 rules
 * under `/packages/`, and every path below `packages` would otherwise try them all.
 */
export function pathRuleFilter(texts: readonly string[]): PathRuleFilter | null {
  const byFirst = new Map<string, RuleBucket>();
  const byLast = new Map<string, PathRuleTest[]>();
  const others: PathRuleTest[] = [];
  let count = 0;
  for (const text of texts) {
    for (const raw of text.split(/\r?\n/)) {
      if (ruleLineKind(raw) !== 'path') continue;
      const rule = indexRule(raw.replace(/\s+$/, ''));
      count++;
      if (rule.first !== null) addToBucket(byFirst, rule.first, rule);
      else if (rule.last !== null) addTo(byLast, rule.last, rule.test);
      else others.push(rule.test);
    }
  }
  if (count === 0) return null;
  const mayMatch = (localDir: string, name: string, first: RuleBucket | undefined) =>
    (first !== undefined &&
      (first.byLast.get(name)?.some((test) => test(localDir, name)) === true ||
        first.others.some((test) => test(localDir, name)))) ||
    byLast.get(name)?.some((test) => test(localDir, name)) === true ||
    others.some((test) => test(localDir, name));
  return (localDir) => {
    // An entry of the rules' own directory is its own first segment.
    if (localDir === '') return (name) => mayMatch('', name, byFirst.get(name));
    const slash = localDir.indexOf('/');
    const first = byFirst.get(slash < 0 ? localDir : localDir.slice(0, slash));
    if (first === undefined && others.length === 0 && byLast.size === 0) return null;
    return (name) => mayMatch(localDir, name, first);
  };
}
