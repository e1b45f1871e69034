// What the portable search's parser makes of a ripgrep (Rust regex) pattern, and what its emitter turns into a
// JavaScript regular expression (docs/grep.md, "The portable search").

/** The flags of Rust's syntax that change what a piece of the pattern means, as they stand at that piece. */
export interface RegexFlags {
  /** `i`: case-insensitive. */
  readonly caseInsensitive: boolean;
  /** `m`: `^` and `$` match at line boundaries (ripgrep's default). */
  readonly multiLine: boolean;
  /** `s`: `.` matches `\n` too. */
  readonly dotAll: boolean;
  /** `R`: `\r\n` ends lines too (ripgrep's `--crlf`, which Grep always passes). */
  readonly crlf: boolean;
  /** `U`: `*` is lazy and `*?` greedy. */
  readonly swapGreed: boolean;
  /** `u`: Unicode classes (`\w`, `\d`, `\s`, `\b`); off, they are ASCII. */
  readonly unicode: boolean;
  /** `x`: whitespace and `#` comments are ignored. */
  readonly verbose: boolean;
}

/** An item of a bracketed class, or the class a `\d`, `\p{..}` or `.` stands for. */
export type ClassItem =
  | { readonly kind: 'range'; readonly from: number; readonly to: number }
  | {
      readonly kind: 'perl';
      readonly which: 'd' | 's' | 'w';
      readonly negated: boolean;
      readonly unicode: boolean;
    }
  /** A Unicode property, by its JavaScript name (`L`, `Script=Greek`). */
  | { readonly kind: 'property'; readonly name: string; readonly negated: boolean }
  /** An ASCII class of `[[:alpha:]]` (POSIX), as code point ranges. */
  | {
      readonly kind: 'ascii';
      readonly ranges: ReadonlyArray<readonly [number, number]>;
      readonly negated: boolean;
    }
  | { readonly kind: 'set'; readonly set: ClassSet };

/** A bracketed class: its items (a union), or two classes combined by `&&`, `--` or `~~`; negated by `^`. */
export type ClassSet =
  | { readonly kind: 'union'; readonly negated: boolean; readonly items: readonly ClassItem[] }
  | {
      readonly kind: 'operation';
      readonly negated: boolean;
      readonly operator: '&&' | '--' | '~~';
      readonly left: ClassSet;
      readonly right: ClassSet;
    };

/** Zero-width assertions. */
export type AssertionKind =
  | 'lineStart'
  | 'lineEnd'
  | 'textStart'
  | 'textEnd'
  | 'wordBoundary'
  | 'notWordBoundary'
  | 'wordStart'
  | 'wordEnd'
  | 'wordStartHalf'
  | 'wordEndHalf';

/** A parsed pattern. `flags` are those in force where the node stands. */
export type RegexNode =
  | { readonly kind: 'empty' }
  | { readonly kind: 'literal'; readonly codePoint: number; readonly flags: RegexFlags }
  | { readonly kind: 'dot'; readonly flags: RegexFlags }
  | { readonly kind: 'assertion'; readonly assertion: AssertionKind; readonly flags: RegexFlags }
  | { readonly kind: 'class'; readonly set: ClassSet; readonly flags: RegexFlags }
  | { readonly kind: 'group'; readonly node: RegexNode }
  | {
      readonly kind: 'repeat';
      readonly node: RegexNode;
      readonly min: number;
      readonly max: number | null;
      readonly greedy: boolean;
    }
  | { readonly kind: 'concat'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alternation'; readonly branches: readonly RegexNode[] };

/** A place in the pattern, in code points: `[start, end)`. */
export interface PatternSpan {
  readonly start: number;
  readonly end: number;
}

/** Why a pattern cannot be searched for, and where (ripgrep's words where it has them; `null`: no place to mark). */
export class RegexSyntaxError extends Error {
  constructor(
    message: string,
    readonly span: PatternSpan | null,
  ) {
    super(message);
  }
}
