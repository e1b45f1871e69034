import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import type { Problem } from '../problem.js';
import { LanguageServer, ServerCrashedError } from './language-server.js';
import { lspProblems } from './lsp-problems.js';
import type { LanguageServerConfig } from './server-config.js';

/** What a server check found. */
export type ServerCheck =
  { kind: 'checked'; problems: Problem[] } | { kind: 'timed out' } | { kind: 'crashed'; message: string };

/** How many times a server that stopped is started again before it is reported instead. */
const RESTARTS = 1;

/**
 * The language servers of one runtime: each started on the first check of a file it serves, restarted once if it
 * stops, then reported as crashed; all shut down by {@link close}. They run where the files are, through the
 * runtime's file system; on one that runs no programs (`capabilities.exec` false: a workspace in memory) there are
 * none, and their files are checked by the parsers as if no server were configured.
 */
export class ServerPool {
  private readonly running = new Map<LanguageServerConfig, LanguageServer>();
  private readonly restarts = new Map<LanguageServerConfig, number>();
  private readonly configs: readonly LanguageServerConfig[];
  private closed = false;

  constructor(
    configs: readonly LanguageServerConfig[],
    private readonly fs: FileSystem,
    private readonly rootDir: string,
  ) {
    this.configs = fs.capabilities.exec && fs.exec ? configs : [];
  }

  /** The server configured for `file` and the language id it gets, if any. */
  serverFor(file: string): { config: LanguageServerConfig; languageId: string } | undefined {
    const extension = path.extname(file).toLowerCase();
    for (const config of this.configs) {
      const languageId = config.languages[extension];
      if (languageId !== undefined) return { config, languageId };
    }
    return undefined;
  }

  /** The problems `config`'s server reports for `text` as `file`'s content, waiting until `deadline` at most. */
  async check(
    config: LanguageServerConfig,
    languageId: string,
    file: string,
    text: string,
    deadline: number,
  ): Promise<ServerCheck> {
    for (;;) {
      const server = this.server(config);
      if (!server) return { kind: 'crashed', message: crashedMessage(config) };
      try {
        const outcome = await server.diagnose(file, languageId, text, deadline);
        if (outcome.kind === 'timed out') return outcome;
        return { kind: 'checked', problems: lspProblems(outcome.diagnostics) };
      } catch (error) {
        if (!(error instanceof ServerCrashedError)) throw error;
        // The next round starts it again, or reports it once it has used its restart.
      }
    }
  }

  /** Shuts every server down; none starts afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [...this.running.values()];
    this.running.clear();
    await Promise.allSettled(servers.map((server) => server.close()));
  }

  /** The running server of `config`, started (or restarted, once) as needed; `undefined` once it is given up. */
  private server(config: LanguageServerConfig): LanguageServer | undefined {
    if (this.closed) return undefined;
    const current = this.running.get(config);
    if (current && !current.isDead) return current;
    if (current) {
      const used = this.restarts.get(config) ?? 0;
      if (used >= RESTARTS) return undefined;
      this.restarts.set(config, used + 1);
      void current.close();
    }
    const started = new LanguageServer(config, this.fs, this.rootDir);
    this.running.set(config, started);
    return started;
  }
}

function crashedMessage(config: LanguageServerConfig): string {
  return `language server ${config.name} stopped and was restarted ${RESTARTS === 1 ? 'once' : `${RESTARTS} times`}`;
}
