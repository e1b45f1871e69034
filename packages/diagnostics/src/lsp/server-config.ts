import { createRequire } from 'node:module';
import type { FileSystem } from '@kimi-tools/core/fs';

/** How to run a program where the files are. */
export interface ServerCommand {
  /** The program: a name looked up on the `PATH` of the host that runs it, or an absolute path there. */
  command: string;
  /** Its arguments (e.g. `['--stdio']`). */
  args?: string[];
}

/** How to start a language server and which files it checks. */
export interface LanguageServerConfig {
  /** Names the server in reports and in `extras.diagnostics.checker`. */
  name: string;
  /** The program to run, e.g. `process.execPath` for a server written in JavaScript. */
  command: string;
  /** Its arguments (e.g. `['--stdio']`). */
  args?: string[];
  /**
   * How to start it where the runtime's programs run on another host (SSH, a container: the file system's
   * `capabilities.localProcesses` is false), e.g. `{ command: 'gopls', args: ['serve'] }` found on that host's `PATH`;
   * default: `command` and `args`.
   */
  remote?: ServerCommand;
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

/** The program that runs `config`'s server on `fs`: its `remote` command where programs run on another host. */
export function serverCommand(config: LanguageServerConfig, fs: FileSystem): Required<ServerCommand> {
  const chosen = fs.capabilities.localProcesses ? config : (config.remote ?? config);
  return { command: chosen.command, args: chosen.args ?? [] };
}

/** Where to find a server on this machine and on a remote host. */
export interface ServerPresetOptions {
  /** Resolve the server's package as a module at this file path would (default: as this package does). */
  resolveFrom?: string;
  /**
   * The server's program where the runtime's programs run on another host (SSH, a container): a name looked up on
   * that host's `PATH` (default: the program the server's npm package installs) or an absolute path there.
   */
  remoteCommand?: string;
}

/**
 * `typescript-language-server` 4.x (install it and `typescript` next to this package): TypeScript and JavaScript,
 * type errors included. On another host: `typescript-language-server --stdio` from its `PATH` (or `remoteCommand`).
 */
export function typescriptLanguageServer(options: ServerPresetOptions = {}): LanguageServerConfig {
  const cli = resolveShipped('typescript-language-server/lib/cli.mjs', options.resolveFrom);
  return {
    name: 'typescript-language-server',
    command: process.execPath,
    args: [cli, '--stdio'],
    remote: { command: options.remoteCommand ?? 'typescript-language-server', args: ['--stdio'] },
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

/**
 * `pyright` (install it next to this package): Python, type errors included. On another host:
 * `pyright-langserver --stdio` from its `PATH` (or `remoteCommand`).
 */
export function pyrightLanguageServer(options: ServerPresetOptions = {}): LanguageServerConfig {
  const cli = resolveShipped('pyright/langserver.index.js', options.resolveFrom);
  return {
    name: 'pyright',
    command: process.execPath,
    args: [cli, '--stdio'],
    remote: { command: options.remoteCommand ?? 'pyright-langserver', args: ['--stdio'] },
    languages: { '.py': 'python', '.pyi': 'python' },
    settings: { python: {}, 'python.analysis': { diagnosticMode: 'openFilesOnly' } },
  };
}
