import type { ParsedLanguage } from '../languages.js';
import type { Problem } from '../problem.js';
import { jsonProblems } from './json-problems.js';
import { tomlProblems } from './toml-problems.js';
import { TreeSitterParsers } from './tree-sitter-problems.js';
import { isScript, type ScriptLanguage } from './script-languages.js';
import type { ScriptOutline } from './typescript-problems.js';
import { yamlProblems } from './yaml-problems.js';

/** What a parser check found. */
export type ParseOutcome = { kind: 'checked'; problems: Problem[] } | { kind: 'timed out' };

/** How many files' last parse a runtime keeps, so the next edit of one needs no parse of its old content. */
const REMEMBERED_FILES = 16;

/** What a runtime keeps of the last check of a file. */
interface Remembered {
  readonly text: string;
  /** The bytes `text` was decoded from, when the caller gave them (a copy: the caller's buffer may be reused). */
  readonly bytes: Uint8Array | undefined;
  readonly problems: Problem[];
  readonly script?: ScriptOutline;
}

/**
 * The in-process syntax checkers of one runtime. It remembers the last text it checked of each file with its
 * problems (and a script's outline), so that an edit of a file it saw last time parses only the new content,
 * incrementally where the parser can, and its old content need not even be decoded again.
 */
export class ParserChecker {
  private readonly treeSitter = new TreeSitterParsers();
  private readonly remembered = new Map<string, Remembered>();

  /**
   * The text last checked of `file` when it was decoded from exactly `bytes`: comparing bytes is a native memory
   * comparison, where decoding 1 MB again (strict UTF-8, line endings) costs a few milliseconds.
   */
  knownText(file: string, bytes: Uint8Array): string | undefined {
    const known = this.remembered.get(file);
    return known?.bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(known.bytes)
      ? known.text
      : undefined;
  }

  /**
   * The problems of `text`, the content of `file` (the key under which it is remembered); `bytes`, when given, are
   * those `text` was decoded from (see `knownText`).
   */
  async check(
    file: string,
    text: string,
    language: ParsedLanguage,
    budgetMs: number,
    bytes?: Uint8Array,
  ): Promise<ParseOutcome> {
    const known = this.remembered.get(file);
    if (known && known.text === text) return { kind: 'checked', problems: known.problems };
    this.remembered.delete(file);
    let problems: Problem[];
    let script: ScriptOutline | undefined;
    if (isScript(language)) {
      const { checkScript } = await import('./typescript-problems.js');
      ({ outline: script, problems } = checkScript(file, text, language, known?.script));
    } else {
      const outcome = await this.parse(text, language, budgetMs);
      if (outcome.kind === 'timed out') return outcome;
      problems = outcome.problems;
    }
    this.remember(file, { text, bytes: bytes && Buffer.from(bytes), problems, script });
    return { kind: 'checked', problems };
  }

  /** Forgets `file` (its content is no longer what was checked, or it is too large to keep). */
  forget(file: string): void {
    this.remembered.delete(file);
  }

  private async parse(text: string, language: Exclude<ParsedLanguage, ScriptLanguage>, budgetMs: number) {
    switch (language) {
      case 'json':
        return { kind: 'checked' as const, problems: jsonProblems(text, false) };
      case 'jsonc':
        return { kind: 'checked' as const, problems: jsonProblems(text, true) };
      case 'yaml':
        return { kind: 'checked' as const, problems: yamlProblems(text) };
      case 'toml':
        return { kind: 'checked' as const, problems: tomlProblems(text) };
      default: {
        const outcome = await this.treeSitter.problems(text, language, budgetMs);
        return outcome.kind === 'parsed' ? { kind: 'checked' as const, problems: outcome.problems } : outcome;
      }
    }
  }

  private remember(file: string, entry: Remembered): void {
    this.remembered.set(file, entry);
    if (this.remembered.size > REMEMBERED_FILES) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
  }
}
