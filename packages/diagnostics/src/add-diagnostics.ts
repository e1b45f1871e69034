import type { ToolRuntime } from '@kimi-tools/core';
import { DiagnosticsObserver } from './diagnostics-observer.js';
import { diagnosticsSettings, type DiagnosticsOptions } from './options.js';

/**
 * Adds diagnostics to a runtime: from now on, every change its tools write reports, in the same result, the problems
 * that change introduced (docs/diagnostics.md). Returns a function that removes them again; `runtime.close()` shuts
 * them down with the session. Throws on an invalid option.
 */
export function addDiagnostics(runtime: ToolRuntime, options: DiagnosticsOptions = {}): () => void {
  const observer = new DiagnosticsObserver(runtime, diagnosticsSettings(options));
  return runtime.changeObservers.add(observer);
}
