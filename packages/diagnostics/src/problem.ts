/** How bad a problem is, in the words of the Language Server Protocol. */
export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** One problem a checker found in a file. */
export interface Problem {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units (as TypeScript and the Language Server Protocol count). */
  column: number;
  severity: Severity;
  /** What is wrong, one line. */
  message: string;
  /**
   * What stays the same when the problem only moves (a parser's error kind, a server's code and message): a problem
   * after the change is old when one before it has the same key.
   */
  key: string;
}

/** Errors first, then by position. */
export function byImportance(a: Problem, b: Problem): number {
  return severityRank(a.severity) - severityRank(b.severity) || a.line - b.line || a.column - b.column;
}

function severityRank(severity: Severity): number {
  return ['error', 'warning', 'info', 'hint'].indexOf(severity);
}

/** The first line of a checker's message, trimmed: messages of some parsers go on with a code excerpt. */
export function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}
