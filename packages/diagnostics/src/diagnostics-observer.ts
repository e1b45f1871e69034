import type { AppliedFileChange, ChangeSection, FileChangeObserver, ToolRuntime } from '@kimi-tools/core';
import { decodeText, errorText } from '@kimi-tools/core/toolkit';
import { compareProblems } from './compare/new-problems.js';
import { languageOf } from './languages.js';
import type { DiagnosticsSettings } from './options.js';
import { ParserChecker } from './parsers/parser-checker.js';
import { diagnosticsSection, type CheckConclusion } from './report/diagnostics-report.js';

/** The name the observer goes by: its section's `source` and the key of `extras.diagnostics`. */
export const DIAGNOSTICS_SOURCE = 'diagnostics';

/** Checks every change a runtime's tools apply and reports the problems that change introduced. */
export class DiagnosticsObserver implements FileChangeObserver {
  readonly name = DIAGNOSTICS_SOURCE;
  private readonly parsers = new ParserChecker();

  constructor(
    private readonly runtime: ToolRuntime,
    private readonly settings: DiagnosticsSettings,
  ) {}

  async changeApplied(change: AppliedFileChange): Promise<ChangeSection> {
    let conclusion: CheckConclusion;
    try {
      conclusion = await this.check(change);
    } catch (error) {
      // Diagnostics never fail a write: a checker that breaks says so and the write stands.
      conclusion = { status: 'no checker', reason: 'failed', detail: errorText(error) };
    }
    return diagnosticsSection(change.path.input, conclusion, this.settings.maxShown);
  }

  /** Nothing runs between changes: parsers hold no process. */
  close(): void {}

  private async check(change: AppliedFileChange): Promise<CheckConclusion> {
    const file = change.path.real;
    // A sensitive file's problems would quote what it holds.
    if (this.runtime.paths.isSensitive(change.path)) return noChecker('sensitive');
    const language = languageOf(file);
    if (language === undefined) return noChecker('language');
    const { maxBytes, parserBudgetMs } = this.settings;
    if (change.newBytes.length > maxBytes) {
      this.parsers.forget(file);
      return { status: 'no checker', reason: 'too large', detail: String(maxBytes) };
    }
    const after = decodeText(change.newBytes);
    if (!after.ok) return noChecker('not text');
    const before =
      change.oldBytes && change.oldBytes.length <= maxBytes ? decodeText(change.oldBytes) : undefined;
    const oldText = before?.ok ? before.decoded.text : '';
    const newText = after.decoded.text;

    const checker = language;
    const old = await this.parsers.check(file, oldText, language, parserBudgetMs);
    if (old.kind === 'timed out') return { status: 'timed out', checker, budgetMs: parserBudgetMs };
    const now = await this.parsers.check(file, newText, language, parserBudgetMs);
    if (now.kind === 'timed out') return { status: 'timed out', checker, budgetMs: parserBudgetMs };
    const { added, kept, fixed } = compareProblems(old.problems, now.problems, oldText, newText);
    return { status: 'checked', checker, added, kept: kept.length, fixed };
  }
}

function noChecker(reason: 'sensitive' | 'language' | 'not text'): CheckConclusion {
  return { status: 'no checker', reason, detail: '' };
}
