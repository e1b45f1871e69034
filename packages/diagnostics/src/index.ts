// @kimi-tools/diagnostics: after every change a runtime's tools write, the problems that change introduced.

/** Adds diagnostics to a runtime. */
export { addDiagnostics } from './add-diagnostics.js';
/** Language servers: the configuration of one (and its command on another host), and the tested ones. */
export {
  typescriptLanguageServer,
  pyrightLanguageServer,
  type LanguageServerConfig,
  type ServerCommand,
  type ServerPresetOptions,
} from './lsp/server-config.js';
/** Options of `addDiagnostics`. */
export type { DiagnosticsOptions } from './options.js';
/** `extras.diagnostics` of a result, and its parts. */
export type { DiagnosticsReport, DiagnosticsStatus, ReportedProblem } from './report/diagnostics-report.js';
export type { Severity } from './problem.js';
export type { NoCheckerReason } from './messages.js';
