import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { firstLine, type Problem } from '../problem.js';
import { positionAt } from './line-starts.js';

/** Syntax errors of a JSON document; `comments` allows comments and trailing commas (tsconfig.json, .jsonc). */
export function jsonProblems(text: string, comments: boolean): Problem[] {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: comments, disallowComments: !comments });
  const at = positionAt(text);
  return errors.map((error) => {
    const code = printParseErrorCode(error.error);
    return {
      ...at(error.offset),
      severity: 'error',
      message: firstLine(spaced(code)),
      key: `json:${code}`,
    };
  });
}

/** `CommaExpected` → `Comma expected`. */
function spaced(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
