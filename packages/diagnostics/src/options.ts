import { positiveNumberOption } from '@kimi-tools/core/toolkit';

/** Options of {@link addDiagnostics}. */
export interface DiagnosticsOptions {
  /** Most new problems the model is shown after a change; the rest are counted (default 10). */
  maxShown?: number;
  /** Time budget of a parser on one version of a file, in milliseconds (default 1000). */
  parserBudgetMs?: number;
  /** Files larger than this many bytes are not checked (default 4 MiB). */
  maxBytes?: number;
}

/** The options with their defaults applied. */
export interface DiagnosticsSettings {
  readonly maxShown: number;
  readonly parserBudgetMs: number;
  readonly maxBytes: number;
}

/** Checks the options (throwing a clear error for a bad one) and applies the defaults. */
export function diagnosticsSettings(options: DiagnosticsOptions): DiagnosticsSettings {
  const owner = 'addDiagnostics';
  return {
    maxShown: Math.floor(positiveNumberOption(owner, 'maxShown', options.maxShown, 10)),
    parserBudgetMs: positiveNumberOption(owner, 'parserBudgetMs', options.parserBudgetMs, 1_000),
    maxBytes: positiveNumberOption(owner, 'maxBytes', options.maxBytes, 4 * 1024 * 1024),
  };
}
