import type { ChangeSection } from '@kimi-tools/core/toolkit';
import { escapeForDisplay, nameSeparators } from '@kimi-tools/core/toolkit';
import {
  cleanMessage,
  moreProblemsMessage,
  newProblemsMessage,
  noCheckerMessage,
  timedOutMessage,
  type NoCheckerReason,
} from '../messages.js';
import { byImportance, type Problem, type Severity } from '../problem.js';

/** What a diagnostics check concluded about one change. */
export type DiagnosticsStatus = 'clean' | 'new problems' | 'timed out' | 'no checker';

/** One problem the change introduced, as `extras.diagnostics.problems` holds it. */
export interface ReportedProblem {
  /** The path as the tool was given it. */
  path: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
}

/** `extras.diagnostics` of a tool result whose change was checked. */
export interface DiagnosticsReport {
  status: DiagnosticsStatus;
  /** What checked the file (`typescript`, `yaml`, `tree-sitter-python`...); absent with `no checker`. */
  checker?: string;
  /** With `no checker`: why. */
  reason?: NoCheckerReason;
  /** Every problem the change introduced, errors first (the model is shown the first few). */
  problems: ReportedProblem[];
  /** Problems that were there before the change and still are. */
  kept: number;
  /** Problems before the change that are gone after it. */
  fixed: number;
}

/** How a change's check ended, before it is worded. */
export type CheckConclusion =
  | { status: 'checked'; checker: string; added: Problem[]; kept: number; fixed: number }
  | { status: 'timed out'; checker: string; budgetMs: number }
  | { status: 'no checker'; reason: NoCheckerReason; detail: string };

/** The section a check adds to the tool's result: the report for the model and the user, and `extras`. */
export function diagnosticsSection(
  path: string,
  conclusion: CheckConclusion,
  maxShown: number,
): ChangeSection {
  const report = reportOf(path, conclusion);
  const text = reportText(report, conclusion, maxShown);
  return { text, extras: report };
}

function reportOf(path: string, conclusion: CheckConclusion): DiagnosticsReport {
  switch (conclusion.status) {
    case 'no checker':
      return { status: 'no checker', reason: conclusion.reason, problems: [], kept: 0, fixed: 0 };
    case 'timed out':
      return { status: 'timed out', checker: conclusion.checker, problems: [], kept: 0, fixed: 0 };
    case 'checked': {
      const problems = [...conclusion.added]
        .sort(byImportance)
        .map(({ line, column, severity, message }) => ({ path, line, column, severity, message }));
      return {
        status: problems.length > 0 ? 'new problems' : 'clean',
        checker: conclusion.checker,
        problems,
        kept: conclusion.kept,
        fixed: conclusion.fixed,
      };
    }
  }
}

function reportText(report: DiagnosticsReport, conclusion: CheckConclusion, maxShown: number): string {
  switch (conclusion.status) {
    case 'no checker':
      return noCheckerMessage(conclusion.reason, conclusion.detail);
    case 'timed out':
      return timedOutMessage(conclusion.budgetMs);
    case 'checked':
      break;
  }
  if (report.problems.length === 0) return cleanMessage(report.kept, report.fixed);
  const shown = report.problems.slice(0, maxShown).map(problemLine);
  const lines = [newProblemsMessage(report.problems.length, report.kept, report.fixed), ...shown];
  if (report.problems.length > maxShown) lines.push(moreProblemsMessage(report.problems.length - maxShown));
  return lines.join('\n');
}

/** A problem line's path is followed by `:{line}:{col}`: a path holding `:` is quoted, so the line splits one way. */
const PROBLEM_PATH_SEPARATORS = nameSeparators(':');

/** `path:line:col severity message`, one line whatever the path or message hold. */
function problemLine(problem: ReportedProblem): string {
  return `${escapeForDisplay(problem.path, PROBLEM_PATH_SEPARATORS)}:${problem.line}:${problem.column} ${problem.severity} ${escapeForDisplay(problem.message)}`;
}
