import type { ToolRuntime } from '@kimi-tools/core';
import type { AppliedFileChange, ChangeSection, FileChangeObserver } from '@kimi-tools/core/toolkit';
import { decodeText, errorText } from '@kimi-tools/core/toolkit';
import { compareProblems } from './compare/new-problems.js';
import { languageOf } from './languages.js';
import type { DiagnosticsSettings } from './options.js';
import { ServerPool } from './lsp/server-pool.js';
import type { LanguageServerConfig } from './lsp/server-config.js';
import { ParserChecker } from './parsers/parser-checker.js';
import { diagnosticsSection, type CheckConclusion } from './report/diagnostics-report.js';

/** The name the observer goes by: its section's `source` and the key of `extras.diagnostics`. */
export const DIAGNOSTICS_SOURCE = 'diagnostics';

/** Checks every change a runtime's tools apply and reports the problems that change introduced. */
export class DiagnosticsObserver implements FileChangeObserver {
  readonly name = DIAGNOSTICS_SOURCE;
  private readonly parsers = new ParserChecker();
  private readonly servers: ServerPool;

  constructor(
    private readonly runtime: ToolRuntime,
    private readonly settings: DiagnosticsSettings,
  ) {
    this.servers = new ServerPool(settings.servers, runtime.fs, runtime.workDir);
  }

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

  /** Shuts the runtime's language servers down. */
  close(): Promise<void> {
    return this.servers.close();
  }

  private async check(change: AppliedFileChange): Promise<CheckConclusion> {
    const file = change.path.real;
    // A sensitive file's problems would quote what it holds.
    if (await this.runtime.paths.isSensitive(change.path)) return noChecker('sensitive');
    const server = this.servers.serverFor(file);
    const language = languageOf(file);
    if (language === undefined && server === undefined) return noChecker('language');
    const { maxBytes, parserBudgetMs } = this.settings;
    if (change.newBytes.length > maxBytes) {
      this.parsers.forget(file);
      return { status: 'no checker', reason: 'too large', detail: String(maxBytes) };
    }
    const after = decodeText(change.newBytes);
    if (!after.ok) return noChecker('not text');
    const newText = after.decoded.text;

    if (server) return this.checkWithServer(server, file, this.oldText(change), newText);
    if (language === undefined) return noChecker('language');
    const checker = language;
    // The old content is most often what the last check of this file saw: then it is neither decoded nor parsed.
    const known = change.oldBytes ? this.parsers.knownText(file, change.oldBytes) : undefined;
    const beforeText = known ?? this.oldText(change);
    // Nothing checkable before (a new file): no problem was there. Parsing the empty text instead would count its
    // own parse error (an empty JSON file has one) as already there.
    const old =
      beforeText === null
        ? { kind: 'checked' as const, problems: [] }
        : await this.parsers.check(file, beforeText, language, parserBudgetMs);
    if (old.kind === 'timed out') return { status: 'timed out', checker, budgetMs: parserBudgetMs };
    const now = await this.parsers.check(file, newText, language, parserBudgetMs, change.newBytes);
    if (now.kind === 'timed out') return { status: 'timed out', checker, budgetMs: parserBudgetMs };
    const { added, kept, fixed } = compareProblems(old.problems, now.problems, beforeText ?? '', newText);
    return { status: 'checked', checker, added, kept: kept.length, fixed };
  }

  /**
   * The text before `change`, or `null` when there is none to check: a new file, or an old content too large to
   * check or not text (its problems are unknown, so none counts as already there).
   */
  private oldText({ oldBytes }: AppliedFileChange): string | null {
    const before = oldBytes && oldBytes.length <= this.settings.maxBytes ? decodeText(oldBytes) : undefined;
    return before?.ok ? before.decoded.text : null;
  }

  /** The check by a language server; `oldText` is `null` when there is nothing to check before (see `oldText`). */
  private async checkWithServer(
    { config, languageId }: { config: LanguageServerConfig; languageId: string },
    file: string,
    oldText: string | null,
    newText: string,
  ): Promise<CheckConclusion> {
    const budgetMs = this.settings.serverBudgetMs;
    const deadline = performance.now() + budgetMs;
    const checker = config.name;
    const old =
      oldText === null
        ? { kind: 'checked' as const, problems: [] }
        : await this.servers.check(config, languageId, file, oldText, deadline);
    if (old.kind === 'crashed') return { status: 'no checker', reason: 'failed', detail: old.message };
    if (old.kind === 'timed out') return { status: 'timed out', checker, budgetMs };
    const now = await this.servers.check(config, languageId, file, newText, deadline);
    if (now.kind === 'crashed') return { status: 'no checker', reason: 'failed', detail: now.message };
    if (now.kind === 'timed out') return { status: 'timed out', checker, budgetMs };
    const { added, kept, fixed } = compareProblems(old.problems, now.problems, oldText ?? '', newText);
    return { status: 'checked', checker, added, kept: kept.length, fixed };
  }
}

function noChecker(reason: 'sensitive' | 'language' | 'not text'): CheckConclusion {
  return { status: 'no checker', reason, detail: '' };
}
