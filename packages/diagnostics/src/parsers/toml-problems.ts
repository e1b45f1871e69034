import { parse, TomlError } from 'smol-toml';
import { firstLine, type Problem } from '../problem.js';

/** The syntax error of a TOML document (the parser stops at the first one), or none. */
export function tomlProblems(text: string): Problem[] {
  try {
    parse(text);
    return [];
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // `Invalid TOML document: invalid value` followed by a code excerpt: only the first line, never the source.
    const message = firstLine(error.message).replace(/^Invalid TOML document: /, '');
    const text = message.charAt(0).toUpperCase() + message.slice(1);
    return [
      { line: error.line, column: error.column, severity: 'error', message: text, key: `toml:${message}` },
    ];
  }
}
