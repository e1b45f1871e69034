import { positiveNumberOption } from '@kimi-tools/core/toolkit';
import type { LanguageServerConfig } from './lsp/server-config.js';

/** Options of {@link addDiagnostics}. */
export interface DiagnosticsOptions {
  /** Most new problems the model is shown after a change; the rest are counted (default 10). */
  maxShown?: number;
  /** Time budget of a parser on one version of a file, in milliseconds (default 1000). */
  parserBudgetMs?: number;
  /** Files larger than this many bytes are not checked (default 4 MiB). */
  maxBytes?: number;
  /**
   * Language servers, each started on the first change of a file it serves and shut down with the runtime: a file
   * a server serves is checked by it instead of the parsers (default none).
   */
  servers?: LanguageServerConfig[];
  /** Time budget of a language server check of one change, start-up included, in milliseconds (default 2000). */
  serverBudgetMs?: number;
}

/** The options with their defaults applied. */
export interface DiagnosticsSettings {
  readonly maxShown: number;
  readonly parserBudgetMs: number;
  readonly maxBytes: number;
  readonly servers: readonly LanguageServerConfig[];
  readonly serverBudgetMs: number;
}

/** Checks the options (throwing a clear error for a bad one) and applies the defaults. */
export function diagnosticsSettings(options: DiagnosticsOptions): DiagnosticsSettings {
  const owner = 'addDiagnostics';
  return {
    maxShown: Math.floor(positiveNumberOption(owner, 'maxShown', options.maxShown, 10)),
    parserBudgetMs: positiveNumberOption(owner, 'parserBudgetMs', options.parserBudgetMs, 1_000),
    maxBytes: positiveNumberOption(owner, 'maxBytes', options.maxBytes, 4 * 1024 * 1024),
    servers: [...(options.servers ?? [])],
    serverBudgetMs: positiveNumberOption(owner, 'serverBudgetMs', options.serverBudgetMs, 2_000),
  };
}
