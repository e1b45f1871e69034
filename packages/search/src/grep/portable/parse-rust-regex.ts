import {
  RegexSyntaxError,
  type AssertionKind,
  type ClassItem,
  type ClassSet,
  type RegexFlags,
  type RegexNode,
} from './regex-ast.js';
import { javaScriptProperty } from './unicode-property.js';

// A parser of ripgrep's regular expressions (the syntax of Rust's `regex` crate), for the portable search: the
// pattern as the model wrote it, into a tree the emitter turns into a JavaScript regular expression. It refuses what
// ripgrep refuses (backreferences, look-around), with ripgrep's words; places are counted in code points, as
// ripgrep counts them.

/** The ASCII classes of `[[:name:]]`, as code point ranges. */
const ASCII_CLASSES: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** Escapes of one letter that stand for a character. */
const CHARACTER_ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };

/** What `\b{...}` may name. */
const WORD_BOUNDARIES: Readonly<Record<string, AssertionKind>> = {
  start: 'wordStart',
  end: 'wordEnd',
  'start-half': 'wordStartHalf',
  'end-half': 'wordEndHalf',
};

const FLAG_NAMES = new Set(['i', 'm', 's', 'R', 'U', 'u', 'x']);

/** Printable ASCII that is neither a letter nor a digit: what a backslash may escape to mean itself. */
function isEscapablePunctuation(char: string): boolean {
  return /^[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(char);
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/** The ranges of a set that is exactly one character, or `undefined`. */
function singleCharacter(item: ClassItem): number | undefined {
  return item.kind === 'range' && item.from === item.to ? item.from : undefined;
}

/** A result of {@link parseRustRegex}: the tree, or why the pattern is refused. */
export type RustRegexParse = { ok: true; node: RegexNode } | { ok: false; error: RegexSyntaxError };

/** Parses `pattern` with `flags` in force from its start (ripgrep's: `m` and `R` on; `i` and `s` when asked). */
export function parseRustRegex(pattern: string, flags: RegexFlags): RustRegexParse {
  try {
    return { ok: true, node: new Parser(pattern, flags).parse() };
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { ok: false, error };
    throw error;
  }
}

class Parser {
  private readonly chars: string[];
  private position = 0;
  private flags: RegexFlags;
  private readonly groupNames = new Set<string>();

  constructor(pattern: string, flags: RegexFlags) {
    this.chars = Array.from(pattern);
    this.flags = flags;
  }

  parse(): RegexNode {
    const node = this.alternation();
    if (this.position < this.chars.length) throw new RegexSyntaxError('unopened group', null);
    return node;
  }

  /**
   * A refusal at `[start, end)`. A place past the end of the pattern is one ripgrep finds in the group it wraps the
   * pattern in, and shows no mark for (as Grep shows ripgrep's errors): so is a group that does not pair up.
   */
  private error(message: string, start: number, end = start + 1): RegexSyntaxError {
    return new RegexSyntaxError(message, start >= this.chars.length ? null : { start, end });
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.position + offset];
  }

  private atEnd(): boolean {
    return this.position >= this.chars.length;
  }

  /** In verbose mode (`x`), skips whitespace and `#` comments. */
  private skipVerbose(): void {
    if (!this.flags.verbose) return;
    for (;;) {
      const char = this.peek();
      if (char === undefined) return;
      if (/\s/.test(char)) this.position++;
      else if (char === '#') {
        while (!this.atEnd() && this.peek() !== '\n') this.position++;
        // ripgrep parses the pattern inside a group: a comment that runs to the end swallows the group's `)`.
        if (this.atEnd()) throw new RegexSyntaxError('unclosed group', null);
      } else return;
    }
  }

  /** Branches separated by `|`, up to a `)` or the end; flags set inside end with it. */
  private alternation(): RegexNode {
    const saved = this.flags;
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.position++;
      branches.push(this.concatenation());
    }
    this.flags = saved;
    return branches.length === 1 ? (branches[0] as RegexNode) : { kind: 'alternation', branches };
  }

  private concatenation(): RegexNode {
    const items: RegexNode[] = [];
    // A flag group `(?i)` stands for nothing a repetition could take.
    let repeatable = false;
    for (;;) {
      this.skipVerbose();
      const char = this.peek();
      if (char === undefined || char === '|' || char === ')') break;
      if (char === '*' || char === '+' || char === '?' || char === '{') {
        if (!repeatable) throw this.error('repetition operator missing expression', this.position);
        items.push(this.repetition(items.pop() as RegexNode));
        continue;
      }
      const atom = this.atom();
      repeatable = atom !== null;
      if (atom !== null) items.push(atom);
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'concat', items };
  }

  private repetition(node: RegexNode): RegexNode {
    const start = this.position;
    const char = this.chars[this.position++];
    let min: number;
    let max: number | null;
    if (char === '*') [min, max] = [0, null];
    else if (char === '+') [min, max] = [1, null];
    else if (char === '?') [min, max] = [0, 1];
    else [min, max] = this.counted(start);
    let greedy = true;
    if (this.peek() === '?') {
      this.position++;
      greedy = false;
    }
    if (this.flags.swapGreed) greedy = !greedy;
    return { kind: 'repeat', node, min, max, greedy };
  }

  /** `{n}`, `{n,}` or `{n,m}` after the `{` at `start`. */
  private counted(start: number): [number, number | null] {
    const min = this.decimal();
    let max: number | null = min;
    this.skipVerbose();
    if (this.peek() === ',') {
      this.position++;
      this.skipVerbose();
      max = this.atEnd() || this.peek() === '}' ? null : this.decimal();
    }
    this.skipVerbose();
    if (this.atEnd()) throw this.error('unclosed counted repetition', start, this.position);
    if (this.peek() !== '}') throw this.error('repetition quantifier expects a valid decimal', this.position);
    this.position++;
    if (max !== null && min > max) {
      throw this.error('invalid repetition count range, the start must be <= the end', start, this.position);
    }
    return [min, max];
  }

  private decimal(): number {
    this.skipVerbose();
    const start = this.position;
    while (isDigit(this.peek())) this.position++;
    if (this.position === start) throw this.error('repetition quantifier expects a valid decimal', start);
    const value = Number(this.chars.slice(start, this.position).join(''));
    if (!Number.isSafeInteger(value) || value > 0xffff_ffff) {
      throw this.error('decimal literal invalid', start, this.position);
    }
    return value;
  }

  /** One item of a concatenation; `null` for a flag group, which only changes the flags. */
  private atom(): RegexNode | null {
    const start = this.position;
    const char = this.chars[this.position++] as string;
    const flags = this.flags;
    switch (char) {
      case '(':
        return this.group(start);
      case '[':
        return { kind: 'class', set: this.bracketedClass(start), flags };
      case '.':
        return { kind: 'dot', flags };
      case '^':
        return { kind: 'assertion', assertion: flags.multiLine ? 'lineStart' : 'textStart', flags };
      case '$':
        return { kind: 'assertion', assertion: flags.multiLine ? 'lineEnd' : 'textEnd', flags };
      case '\\':
        return this.escape(start);
      default:
        return { kind: 'literal', codePoint: char.codePointAt(0) as number, flags };
    }
  }

  private group(start: number): RegexNode | null {
    if (this.peek() !== '?') return this.groupBody();
    this.position++;
    const kind = this.peek();
    if (kind === '=' || kind === '!' || (kind === '<' && (this.peek(1) === '=' || this.peek(1) === '!'))) {
      const end = this.position + (kind === '<' ? 2 : 1);
      throw this.error('look-around, including look-ahead and look-behind, is not supported', start, end);
    }
    if (kind === 'P' && this.peek(1) === '<') {
      this.position += 2;
      this.groupName();
      return this.groupBody();
    }
    if (kind === '<') {
      this.position++;
      this.groupName();
      return this.groupBody();
    }
    return this.flagGroup(start);
  }

  /** A capture group's name up to `>`. */
  private groupName(): void {
    const start = this.position;
    while (!this.atEnd() && this.peek() !== '>') {
      if (!/^[\p{L}\p{N}_.[\]]$/u.test(this.peek() as string)) {
        throw this.error('invalid capture group character', this.position);
      }
      this.position++;
    }
    if (this.atEnd()) throw this.error('unclosed capture group name', start, this.position);
    if (this.position === start) throw this.error('empty capture group name', this.position);
    const name = this.chars.slice(start, this.position).join('');
    if (isDigit(name[0])) throw this.error('invalid capture group character', start);
    if (this.groupNames.has(name)) throw this.error('duplicate capture group name', start, this.position);
    this.groupNames.add(name);
    this.position++;
  }

  /** `(?flags)` (the flags hold to the end of the enclosing group) or `(?flags:...)`. */
  private flagGroup(start: number): RegexNode | null {
    let flags = this.flags;
    let negate = false;
    let last: 'flag' | 'negation' | null = null;
    for (;;) {
      const char = this.peek();
      if (char === undefined) throw this.error('expected flag but got end of regex', this.position);
      if (char === ')' || char === ':') {
        if (last === 'negation') throw this.error('expected flag but got end of flags', this.position);
        if (last === null && char === ')') throw this.error('empty flag group', start, this.position + 1);
        this.position++;
        if (char === ')') {
          this.flags = flags;
          return null;
        }
        const outer = this.flags;
        this.flags = flags;
        const node = this.groupBody();
        this.flags = outer;
        return node;
      }
      if (char === '-') {
        if (negate) throw this.error('repeated negation in flag group', this.position);
        negate = true;
        last = 'negation';
        this.position++;
        continue;
      }
      if (!FLAG_NAMES.has(char)) throw this.error('unrecognized flag', this.position);
      flags = withFlag(flags, char, !negate);
      last = 'flag';
      this.position++;
    }
  }

  /** The inside of a group up to the `)` that closes it (a group that does not close is marked nowhere, see error). */
  private groupBody(): RegexNode {
    const node = this.alternation();
    if (this.peek() !== ')') throw new RegexSyntaxError('unclosed group', null);
    this.position++;
    return { kind: 'group', node };
  }

  /** An escape outside a class, after its `\` at `start`. */
  private escape(start: number): RegexNode {
    const flags = this.flags;
    const char = this.chars[this.position++];
    if (char === undefined) {
      throw this.error('incomplete escape sequence, reached end of pattern prematurely', start);
    }
    if (isDigit(char)) {
      while (isDigit(this.peek())) this.position++;
      throw this.error('backreferences are not supported', start, Math.min(this.position, start + 2));
    }
    const assertion = this.assertionEscape(char);
    if (assertion !== undefined) return { kind: 'assertion', assertion, flags };
    const item = this.classEscape(char, start);
    if (item !== undefined)
      return { kind: 'class', set: { kind: 'union', negated: false, items: [item] }, flags };
    return { kind: 'literal', codePoint: this.characterEscape(char, start), flags };
  }

  private assertionEscape(char: string): AssertionKind | undefined {
    switch (char) {
      case 'A':
        return 'textStart';
      case 'z':
        return 'textEnd';
      case '<':
        return 'wordStart';
      case '>':
        return 'wordEnd';
      case 'B':
        return 'notWordBoundary';
      case 'b': {
        if (this.peek() !== '{') return 'wordBoundary';
        const close = this.chars.indexOf('}', this.position);
        const name = close < 0 ? undefined : this.chars.slice(this.position + 1, close).join('');
        const kind = name === undefined ? undefined : WORD_BOUNDARIES[name];
        // Not a special boundary: `\b` followed by a counted repetition, which Rust refuses on an assertion.
        if (kind === undefined) return 'wordBoundary';
        this.position = close + 1;
        return kind;
      }
      default:
        return undefined;
    }
  }

  /** `\d \s \w \p{..}` and their negations, as a class item; `undefined` for any other escape. */
  private classEscape(char: string, start: number): ClassItem | undefined {
    const lower = char.toLowerCase();
    if (lower === 'd' || lower === 's' || lower === 'w') {
      return { kind: 'perl', which: lower, negated: char !== lower, unicode: this.flags.unicode };
    }
    if (char !== 'p' && char !== 'P') return undefined;
    let name: string;
    if (this.peek() === '{') {
      const close = this.chars.indexOf('}', this.position);
      if (close < 0) throw this.error('found open brace without closing brace', this.position);
      name = this.chars.slice(this.position + 1, close).join('');
      this.position = close + 1;
    } else {
      const letter = this.chars[this.position++];
      if (letter === undefined) {
        throw this.error('incomplete escape sequence, reached end of pattern prematurely', start);
      }
      name = letter;
    }
    const property = javaScriptProperty(name);
    if (property === undefined) throw this.error('Unicode property not found', start, this.position);
    return { kind: 'property', name: property.name, negated: (char === 'P') !== property.negated };
  }

  /** The character an escape stands for: `\n`, `\x41`, `\u{1F600}`, `\.`... */
  private characterEscape(char: string, start: number): number {
    const named = CHARACTER_ESCAPES[char];
    if (named !== undefined) return named;
    if (char === 'x' || char === 'u' || char === 'U')
      return this.hexEscape(char === 'x' ? 2 : char === 'u' ? 4 : 8);
    if (isEscapablePunctuation(char)) return char.codePointAt(0) as number;
    throw this.error('unrecognized escape sequence', start, this.position);
  }

  /** The code point of `\xHH`, `\uHHHH`, `\UHHHHHHHH` or `\x{H...}` after the letter. */
  private hexEscape(digits: number): number {
    let text: string;
    const start = this.position;
    if (this.peek() === '{') {
      const close = this.chars.indexOf('}', this.position);
      if (close < 0) throw this.error('unclosed hexadecimal literal', start);
      text = this.chars.slice(this.position + 1, close).join('');
      const bad = Array.from(text).findIndex((digit) => !/^[0-9a-fA-F]$/.test(digit));
      if (bad >= 0) throw this.error('invalid hexadecimal digit', this.position + 1 + bad);
      if (text === '') throw this.error('hexadecimal literal empty', this.position, close + 1);
      this.position = close + 1;
    } else {
      for (let index = 0; index < digits; index++) {
        const digit = this.peek();
        if (digit === undefined || !/^[0-9a-fA-F]$/.test(digit)) {
          throw this.error('invalid hexadecimal digit', this.position);
        }
        this.position++;
      }
      text = this.chars.slice(start, this.position).join('');
    }
    const codePoint = Number.parseInt(text, 16);
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      throw this.error('hexadecimal literal is not a Unicode scalar value', start, this.position);
    }
    return codePoint;
  }

  /** A bracketed class after its `[` at `start`: items, nested classes, `&&`, `--` and `~~`. */
  private bracketedClass(start: number): ClassSet {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.position++;
    }
    const operands: ClassSet[] = [];
    const operators: Array<'&&' | '--' | '~~'> = [];
    let items: ClassItem[] = [];
    let first = true;
    for (;;) {
      if (this.flags.verbose) while (/^\s$/.test(this.peek() ?? '')) this.position++;
      const char = this.peek();
      if (char === undefined) throw this.error('unclosed character class', start);
      if (char === ']' && !first) {
        this.position++;
        break;
      }
      const operator = char + (this.peek(1) ?? '');
      if (operator === '&&' || operator === '--' || operator === '~~') {
        this.position += 2;
        // An operator with nothing on its left (`[&&a]`) stands for nothing, as in ripgrep.
        if (items.length > 0 || operands.length > operators.length) {
          operands.push({ kind: 'union', negated: false, items });
          operators.push(operator);
        }
        items = [];
        first = false;
        continue;
      }
      first = false;
      items.push(this.classItem());
    }
    operands.push({ kind: 'union', negated: false, items });
    let set = operands[0] as ClassSet;
    operators.forEach((operator, index) => {
      set = {
        kind: 'operation',
        negated: false,
        operator,
        left: set,
        right: operands[index + 1] as ClassSet,
      };
    });
    return { ...set, negated };
  }

  private classItem(): ClassItem {
    const start = this.position;
    const char = this.chars[this.position++] as string;
    if (char === '[') {
      if (this.peek() === ':') {
        const posix = this.posixClass();
        if (posix !== undefined) return posix;
      }
      return { kind: 'set', set: this.bracketedClass(start) };
    }
    let from: number;
    if (char === '\\') {
      const escaped = this.chars[this.position++];
      if (escaped === undefined) throw this.error('unclosed character class', start);
      const item = this.classEscape(escaped, start);
      if (item !== undefined) return item;
      if (isDigit(escaped)) throw this.error('backreferences are not supported', start, this.position);
      from = this.characterEscape(escaped, start);
    } else {
      from = char.codePointAt(0) as number;
    }
    // `a-]` ends with a literal `-`; `a--b` is a difference, not a range.
    if (this.peek() !== '-' || this.peek(1) === ']' || this.peek(1) === '-' || this.peek(1) === undefined) {
      return { kind: 'range', from, to: from };
    }
    this.position++;
    const endStart = this.position;
    const endChar = this.chars[this.position++] as string;
    let to: number;
    if (endChar === '\\') {
      const escaped = this.chars[this.position++];
      if (escaped === undefined) throw this.error('unclosed character class', start);
      if (/^[dDsSwWpP]$/.test(escaped) || isDigit(escaped)) {
        throw this.error('invalid range boundary, must be a literal', endStart, this.position);
      }
      to = this.characterEscape(escaped, endStart);
    } else if (endChar === '[') {
      throw this.error('invalid range boundary, must be a literal', endStart);
    } else {
      to = endChar.codePointAt(0) as number;
    }
    if (from > to) {
      throw this.error('invalid character class range, the start must be <= the end', start, this.position);
    }
    return { kind: 'range', from, to };
  }

  /** `[:name:]` or `[:^name:]` after the `[`, when the name is one; otherwise nothing is consumed. */
  private posixClass(): ClassItem | undefined {
    const close = this.chars.indexOf(']', this.position);
    if (close < 0) return undefined;
    const inner = this.chars.slice(this.position, close).join('');
    const match = /^:(\^?)([a-z]+):$/.exec(inner);
    const ranges = match === null ? undefined : ASCII_CLASSES[match[2] as string];
    if (match === null || ranges === undefined) return undefined;
    this.position = close + 1;
    return { kind: 'ascii', ranges, negated: match[1] === '^' };
  }
}

function withFlag(flags: RegexFlags, name: string, on: boolean): RegexFlags {
  switch (name) {
    case 'i':
      return { ...flags, caseInsensitive: on };
    case 'm':
      return { ...flags, multiLine: on };
    case 's':
      return { ...flags, dotAll: on };
    case 'R':
      return { ...flags, crlf: on };
    case 'U':
      return { ...flags, swapGreed: on };
    case 'u':
      return { ...flags, unicode: on };
    default:
      return { ...flags, verbose: on };
  }
}

/** The character a class stands for when it stands for exactly one (`[\n]`), as ripgrep reads it. */
export function classCharacter(set: ClassSet): number | undefined {
  if (set.kind !== 'union' || set.negated || set.items.length !== 1) return undefined;
  return singleCharacter(set.items[0] as ClassItem);
}
