import { createRequire } from 'node:module';

/** How to start a language server and which files it checks. */
export interface LanguageServerConfig {
  /** Names the server in reports and in `extras.diagnostics.checker` (`lsp:{name}`). */
  name: string;
  /** The program to run, e.g. `process.execPath` for a server written in JavaScript. */
  command: string;
  /** Its arguments (e.g. `['--stdio']`). */
  args?: string[];
  /** The files it checks: file extension (with the dot, lower case) → LSP language id, e.g. `{ '.py': 'python' }`. */
  languages: Record<string, string>;
  /** Sent as `initializationOptions` with `initialize`. */
  initializationOptions?: unknown;
  /** Answers to the server's `workspace/configuration` requests, by section (`null` for a section not given). */
  settings?: Record<string, unknown>;
}

/** The path of a file a package ships, resolved from this package (or from `from`, a file path). */
function resolveShipped(specifier: string, from: string | undefined): string {
  // The CommonJS build has no `import.meta.url`; the ESM one has no `__filename`.
  const base = from ?? (typeof __filename === 'string' ? __filename : import.meta.url);
  return createRequire(base).resolve(specifier);
}

/** Where to find a server's package when the host installed it rather than this package's dependencies. */
export interface ServerPresetOptions {
  /** Resolve the server's package as a module at this file path would (default: as this package does). */
  resolveFrom?: string;
}

/**
 * `typescript-language-server` 4.x (install it and `typescript` next to this package): TypeScript and JavaScript,
 * type errors included.
 */
export function typescriptLanguageServer(options: ServerPresetOptions = {}): LanguageServerConfig {
  const cli = resolveShipped('typescript-language-server/lib/cli.mjs', options.resolveFrom);
  return {
    name: 'typescript-language-server',
    command: process.execPath,
    args: [cli, '--stdio'],
    languages: {
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.tsx': 'typescriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
      '.jsx': 'javascriptreact',
    },
  };
}

/** `pyright` (install it next to this package): Python, type errors included. */
export function pyrightLanguageServer(options: ServerPresetOptions = {}): LanguageServerConfig {
  const cli = resolveShipped('pyright/langserver.index.js', options.resolveFrom);
  return {
    name: 'pyright',
    command: process.execPath,
    args: [cli, '--stdio'],
    languages: { '.py': 'python', '.pyi': 'python' },
    settings: { python: {}, 'python.analysis': { diagnosticMode: 'openFilesOnly' } },
  };
}
