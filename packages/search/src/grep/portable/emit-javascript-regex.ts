import { classCharacter } from './parse-rust-regex.js';
import type { AssertionKind, ClassItem, ClassSet, RegexFlags, RegexNode } from './regex-ast.js';

// Turns a parsed ripgrep pattern into a JavaScript regular expression with the same meaning, in the `v` mode
// (Unicode, and classes with `&&` and `--` as Rust has them). Everything whose meaning differs between the two is
// written out: `.`, `^`, `$`, `\b`, `\d`, `\s`, `\w` (Unicode in Rust, ASCII in JavaScript), and case-insensitive
// groups (JavaScript 20 has no `(?i:...)`: their letters are written as classes of their cases).

/** A JavaScript regular expression: its source and flags (`v`, and `i` when the whole pattern ignores case). */
export interface JavaScriptRegex {
  readonly source: string;
  readonly flags: string;
}

/** How the pattern is searched. */
export interface EmitOptions {
  /**
   * Line by line (Grep without `multiline`): as in ripgrep, nothing matches a line ending, a class loses `\n` (and
   * `\r` in CRLF mode), and a pattern that needs one is refused.
   */
  readonly lineMode: boolean;
  /**
   * `\A` (and `^` without `m`) hold only at the start of the text, even line by line: how ripgrep finds a matched
   * line's column, in its read buffer rather than in the line.
   */
  readonly textStartOfBuffer?: boolean;
}

/** Thrown for a `\n` (or, in CRLF mode, `\r`) that a line-by-line search can never match (ripgrep refuses it too). */
export class LineTerminatorLiteralError extends Error {
  constructor(readonly character: '\n' | '\r') {
    super(`the literal ${JSON.stringify(character)} is not allowed in a regex`);
  }
}

/** Rust's Unicode word characters (`\w`): letters, marks, digits, connector punctuation, joiners. */
const UNICODE_WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const ASCII_WORD = '0-9A-Za-z_';

/** Ranges this long or shorter are folded code point by code point in a case-insensitive group. */
const MAX_FOLDED_RANGE = 2048;

/** A code point as it can stand anywhere in a `v`-mode pattern. */
function escaped(codePoint: number): string {
  return `\\u{${codePoint.toString(16)}}`;
}

/** Outside a class: letters and digits as they are, anything else escaped. */
function literalText(codePoint: number): string {
  return /^[0-9A-Za-z_]$/.test(String.fromCodePoint(codePoint))
    ? String.fromCodePoint(codePoint)
    : escaped(codePoint);
}

/** The code points equal to `codePoint` ignoring case (by JavaScript's simple case folding, as Rust's). */
function caseVariants(codePoint: number): number[] {
  const char = String.fromCodePoint(codePoint);
  const found = new Set<number>([codePoint]);
  for (const variant of [char.toLowerCase(), char.toUpperCase(), char.toUpperCase().toLowerCase()]) {
    const points = Array.from(variant);
    if (points.length === 1) found.add((points[0] as string).codePointAt(0) as number);
  }
  if (found.size === 1) return [codePoint];
  const same = new RegExp(`^${escaped(codePoint)}$`, 'iu');
  return [...found].filter((point) => same.test(String.fromCodePoint(point)));
}

function wordClass(flags: RegexFlags): string {
  return `[${flags.unicode ? UNICODE_WORD : ASCII_WORD}]`;
}

/** The class a line-by-line search takes out of every class: the line ending. */
function lineEnding(flags: RegexFlags): string {
  return flags.crlf ? '[\\n\\r]' : '[\\n]';
}

class Emitter {
  /** Whether every letter of the pattern ignores case: then the `i` flag does it, else groups are folded here. */
  readonly wholeIgnoresCase: boolean;

  constructor(
    root: RegexNode,
    private readonly options: EmitOptions,
  ) {
    const caseFlags: boolean[] = [];
    collectCaseFlags(root, caseFlags);
    this.wholeIgnoresCase = caseFlags.length > 0 && caseFlags.every(Boolean);
  }

  node(node: RegexNode, singleCharacterBranch = false): string {
    switch (node.kind) {
      case 'empty':
        return '';
      case 'literal':
        return this.literal(node.codePoint, node.flags, singleCharacterBranch);
      case 'dot':
        return this.dot(node.flags);
      case 'assertion':
        return assertion(
          node.assertion,
          node.flags,
          this.options.lineMode && !this.options.textStartOfBuffer,
        );
      case 'class': {
        const single = classCharacter(node.set);
        // A class of one character is that character (ripgrep reads `[\n]` as `\n`).
        if (single !== undefined) return this.literal(single, node.flags, singleCharacterBranch);
        return this.classNode(node.set, node.flags);
      }
      case 'group':
        return `(?:${this.node(node.node)})`;
      case 'repeat': {
        const count =
          node.min === 0 && node.max === null
            ? '*'
            : node.min === 1 && node.max === null
              ? '+'
              : node.min === 0 && node.max === 1
                ? '?'
                : node.max === null
                  ? `{${node.min},}`
                  : node.min === node.max
                    ? `{${node.min}}`
                    : `{${node.min},${node.max}}`;
        return `(?:${this.node(node.node)})${count}${node.greedy ? '' : '?'}`;
      }
      case 'concat':
        return node.items.map((item) => this.node(item)).join('');
      case 'alternation': {
        // Branches of one character each are one class for ripgrep: a line ending among them is only left out.
        const single = node.branches.every(isSingleCharacter);
        return `(?:${node.branches.map((branch) => this.node(branch, single)).join('|')})`;
      }
    }
  }

  private literal(codePoint: number, flags: RegexFlags, singleCharacterBranch: boolean): string {
    if (this.options.lineMode && (codePoint === 10 || (codePoint === 13 && flags.crlf))) {
      if (singleCharacterBranch) return '[]';
      throw new LineTerminatorLiteralError(codePoint === 10 ? '\n' : '\r');
    }
    if (!flags.caseInsensitive || this.wholeIgnoresCase) return literalText(codePoint);
    const variants = caseVariants(codePoint);
    return variants.length === 1 ? literalText(codePoint) : `[${variants.map(escaped).join('')}]`;
  }

  private dot(flags: RegexFlags): string {
    // Line by line, `(?s).` still never matches a line ending (ripgrep takes it out of every class).
    if (flags.dotAll && !this.options.lineMode) return '[\\s\\S]';
    return flags.crlf && (this.options.lineMode || !flags.dotAll) ? '[^\\n\\r]' : '[^\\n]';
  }

  private classNode(set: ClassSet, flags: RegexFlags): string {
    const fold = flags.caseInsensitive && !this.wholeIgnoresCase;
    const text = emitSet(set, fold);
    return this.options.lineMode ? `[${text}--${lineEnding(flags)}]` : text;
  }
}

function isSingleCharacter(node: RegexNode): boolean {
  return node.kind === 'literal' || (node.kind === 'class' && classCharacter(node.set) !== undefined);
}

/** The case-insensitivity of every letter and class of the pattern, in order. */
function collectCaseFlags(node: RegexNode, found: boolean[]): void {
  switch (node.kind) {
    case 'literal':
    case 'class':
      found.push(node.flags.caseInsensitive);
      return;
    case 'group':
    case 'repeat':
      collectCaseFlags(node.node, found);
      return;
    case 'concat':
      for (const item of node.items) collectCaseFlags(item, found);
      return;
    case 'alternation':
      for (const branch of node.branches) collectCaseFlags(branch, found);
      return;
    default:
      return;
  }
}

function emitSet(set: ClassSet, fold: boolean): string {
  const negation = set.negated ? '^' : '';
  if (set.kind === 'union') return `[${negation}${set.items.map((item) => emitItem(item, fold)).join('')}]`;
  const left = emitSet(set.left, fold);
  const right = emitSet(set.right, fold);
  if (set.operator === '~~') return `[${negation}[${left}--${right}][${right}--${left}]]`;
  return `[${negation}${left}${set.operator}${right}]`;
}

function emitItem(item: ClassItem, fold: boolean): string {
  switch (item.kind) {
    case 'range': {
      const text = item.from === item.to ? escaped(item.from) : `${escaped(item.from)}-${escaped(item.to)}`;
      if (!fold || item.to - item.from > MAX_FOLDED_RANGE) return text;
      const extra = new Set<number>();
      for (let point = item.from; point <= item.to; point++) {
        for (const variant of caseVariants(point))
          if (variant < item.from || variant > item.to) extra.add(variant);
      }
      return text + [...extra].map(escaped).join('');
    }
    case 'perl':
      return perlClass(item.which, item.negated, item.unicode);
    case 'property':
      return `\\${item.negated ? 'P' : 'p'}{${item.name}}`;
    case 'ascii': {
      const ranges = item.ranges.map(([from, to]) =>
        from === to ? escaped(from) : `${escaped(from)}-${escaped(to)}`,
      );
      return `[${item.negated ? '^' : ''}${ranges.join('')}]`;
    }
    case 'set':
      return emitSet(item.set, fold);
  }
}

function perlClass(which: 'd' | 's' | 'w', negated: boolean, unicode: boolean): string {
  if (unicode && which === 'd') return negated ? '\\P{Nd}' : '\\p{Nd}';
  if (unicode && which === 's') return negated ? '\\P{White_Space}' : '\\p{White_Space}';
  const members =
    which === 'w' ? (unicode ? UNICODE_WORD : ASCII_WORD) : which === 'd' ? '0-9' : '\\t\\n\\v\\f\\r ';
  return `[${negated ? '^' : ''}${members}]`;
}

/** A zero-width assertion, written with look-around (JavaScript's `^`, `$` and `\b` mean other things). */
function assertion(kind: AssertionKind, flags: RegexFlags, lineMode: boolean): string {
  const word = wordClass(flags);
  switch (kind) {
    case 'lineStart':
      // After `\n`, or (CRLF) after `\r` unless between `\r` and `\n`.
      return flags.crlf ? '(?<![^\\n\\r])(?!(?<=\\r)\\n)' : '(?<![^\\n])';
    case 'lineEnd':
      return flags.crlf ? '(?![^\\n\\r])(?<!\\r(?=\\n))' : '(?![^\\n])';
    case 'textStart':
      // Line by line, ripgrep's haystack is one line: its start is the line's.
      return lineMode ? '(?<![^\\n])' : '(?<![\\s\\S])';
    case 'textEnd':
      return '(?![\\s\\S])';
    case 'wordBoundary':
      return `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
    case 'notWordBoundary':
      return `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`;
    case 'wordStart':
      return `(?<!${word})(?=${word})`;
    case 'wordEnd':
      return `(?<=${word})(?!${word})`;
    case 'wordStartHalf':
      return `(?<!${word})`;
    case 'wordEndHalf':
      return `(?!${word})`;
  }
}

/** Whether `node` holds a `\A` (or `^` without `m`): line by line, ripgrep's column of it differs (see `EmitOptions`). */
export function hasTextStart(node: RegexNode): boolean {
  switch (node.kind) {
    case 'assertion':
      return node.assertion === 'textStart';
    case 'group':
    case 'repeat':
      return hasTextStart(node.node);
    case 'concat':
      return node.items.some(hasTextStart);
    case 'alternation':
      return node.branches.some(hasTextStart);
    default:
      return false;
  }
}

/**
 * Whether `node` can match nothing without any assertion (`x*`, `(?:)`): ripgrep then also finds an empty match
 * between the bytes of a character of several bytes, which counts.
 */
export function matchesEmptyAnywhere(node: RegexNode): boolean {
  switch (node.kind) {
    case 'empty':
      return true;
    case 'group':
      return matchesEmptyAnywhere(node.node);
    case 'repeat':
      return node.min === 0 || matchesEmptyAnywhere(node.node);
    case 'concat':
      return node.items.every(matchesEmptyAnywhere);
    case 'alternation':
      return node.branches.some(matchesEmptyAnywhere);
    default:
      return false;
  }
}

/** The JavaScript regular expression of a parsed pattern (throws {@link LineTerminatorLiteralError}). */
export function emitJavaScriptRegex(root: RegexNode, options: EmitOptions): JavaScriptRegex {
  const emitter = new Emitter(root, options);
  return { source: emitter.node(root), flags: emitter.wholeIgnoresCase ? 'iv' : 'v' };
}
