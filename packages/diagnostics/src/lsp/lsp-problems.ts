import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol';
import { firstLine, type Problem, type Severity } from '../problem.js';

const SEVERITIES: Readonly<Record<number, Severity>> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'info',
  [DiagnosticSeverity.Hint]: 'hint',
};

/** A server's diagnostics as problems (a diagnostic without a severity is an error, as the protocol suggests). */
export function lspProblems(diagnostics: readonly Diagnostic[]): Problem[] {
  return diagnostics.map((diagnostic) => {
    const message = firstLine(diagnostic.message);
    return {
      line: diagnostic.range.start.line + 1,
      column: diagnostic.range.start.character + 1,
      severity: SEVERITIES[diagnostic.severity ?? DiagnosticSeverity.Error] ?? 'error',
      message,
      key: `${diagnostic.source ?? ''}:${String(diagnostic.code ?? '')}:${message}`,
    };
  });
}
