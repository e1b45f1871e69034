import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import {
  ConfigurationRequest,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ResponseError,
  RegistrationRequest,
  ShutdownRequest,
  WorkDoneProgressCreateRequest,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver-protocol';
import type { LanguageServerConfig } from './server-config.js';
import { killAtExit } from './kill-at-exit.js';

/** How long a server may take to shut down politely before it is killed. */
const SHUTDOWN_GRACE_MS = 1_000;

/** How long the publications for a document must have stopped before its diagnostics count as complete. */
const SETTLE_MS = 250;

/** The diagnostics a server gave for one version of a document, or that the wait ran out. */
export type ServerOutcome = { kind: 'diagnostics'; diagnostics: Diagnostic[] } | { kind: 'timed out' };

/** Thrown when the server process is gone: the pool restarts it once, then reports it. */
export class ServerCrashedError extends Error {}

interface OpenDocument {
  version: number;
  text: string;
  /** The diagnostics of this version, once known. */
  diagnostics?: Diagnostic[];
}

/**
 * One running language server process and the documents this runtime opened in it. It sends each version of a
 * file in full and waits for that version's diagnostics: pulled when the server offers `textDocument/diagnostic`,
 * else the next `publishDiagnostics` for the document after the change.
 */
export class LanguageServer {
  private readonly documents = new Map<string, OpenDocument>();
  private readonly published = new Map<
    string,
    { diagnostics: Diagnostic[]; version?: number; count: number }
  >();
  private readonly waiters = new Set<() => void>();
  private readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly ready: Promise<InitializeResult>;
  private exited = false;
  private resolveStopped: () => void = () => undefined;
  /** Settles when the process is gone: a pending request never answers then. */
  private readonly stopped = new Promise<void>((resolve) => {
    this.resolveStopped = resolve;
  });
  /** Stops the kill at this process's exit: the server is gone. */
  private readonly forgetAtExit: () => void;

  constructor(
    private readonly config: LanguageServerConfig,
    rootDir: string,
  ) {
    this.child = spawn(config.command, config.args ?? [], {
      cwd: rootDir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    // A server never outlives this process, however it ends (a server being closed included).
    this.forgetAtExit = killAtExit(this.child);
    this.child.once('exit', () => {
      this.forgetAtExit();
      this.markExited();
    });
    this.child.once('error', () => {
      // No process was started: nothing to kill.
      if (this.child.pid === undefined) this.forgetAtExit();
      this.markExited();
    });
    this.connection = createProtocolConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const before = this.published.get(params.uri);
      this.published.set(params.uri, { diagnostics: params.diagnostics, count: (before?.count ?? 0) + 1 });
      for (const wake of [...this.waiters]) wake();
    });
    this.connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section ? (config.settings?.[item.section] ?? null) : null)),
    );
    this.connection.onRequest(RegistrationRequest.type, () => undefined);
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onError(() => this.markExited());
    this.connection.onClose(() => this.markExited());
    this.connection.listen();
    const rootUri = pathToFileURL(rootDir).href;
    // Nothing is written before the process exists: a write to the pipe of a command that failed to start rejects
    // inside the connection, where no one can catch it, and ends the host.
    this.ready = once(this.child, 'spawn')
      .then(() =>
        this.connection.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
          initializationOptions: config.initializationOptions,
          capabilities: {
            textDocument: {
              synchronization: { didSave: false, dynamicRegistration: false },
              publishDiagnostics: { versionSupport: true, relatedInformation: false },
              diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
            },
            workspace: { configuration: true, workspaceFolders: true },
          },
        }),
      )
      .then(async (result) => {
        await this.connection.sendNotification(InitializedNotification.type, {});
        return result;
      });
    // A failed start is seen by whoever checks next; it must not become an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
  }

  /** Whether the process has exited (crashed, or was closed). */
  get isDead(): boolean {
    return this.exited;
  }

  /**
   * The diagnostics of `text` as the content of `file`, waiting until `deadline` (a `performance.now()` time) at
   * most. The document is opened afresh for each version: a server need not publish again when a change leaves
   * the diagnostics as they were (typescript-language-server does not), but it publishes for a document it opens.
   */
  async diagnose(file: string, languageId: string, text: string, deadline: number): Promise<ServerOutcome> {
    const started = await this.within(this.ready, deadline);
    if (started === undefined) return { kind: 'timed out' };
    const uri = pathToFileURL(file).href;
    const open = this.documents.get(uri);
    if (open && open.text === text && open.diagnostics)
      return { kind: 'diagnostics', diagnostics: open.diagnostics };
    const version = (open?.version ?? 0) + 1;
    this.documents.set(uri, { version, text });
    this.assertAlive();
    if (open) {
      await this.connection.sendNotification(DidCloseTextDocumentNotification.type, {
        textDocument: { uri },
      });
      // What the server publishes as it closes the document is not about this version: wait until it has said it.
      if ((await this.within(this.sync(uri), deadline)) === undefined) return { kind: 'timed out' };
    }
    const publishedBefore = this.published.get(uri)?.count ?? 0;
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
    let outcome: ServerOutcome;
    if (started.capabilities.diagnosticProvider) {
      const report = await this.within(
        this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }),
        deadline,
      );
      outcome =
        report?.kind === 'full' ? { kind: 'diagnostics', diagnostics: report.items } : { kind: 'timed out' };
    } else {
      outcome = await this.settledPublish(uri, publishedBefore, deadline);
    }
    const current = this.documents.get(uri);
    if (outcome.kind === 'diagnostics' && current?.version === version)
      current.diagnostics = outcome.diagnostics;
    return outcome;
  }

  /** Shuts the server down: `shutdown`, `exit`, then a kill if it is still there after a grace period. */
  async close(): Promise<void> {
    if (!this.exited) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
      const polite = (async () => {
        await this.ready;
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      })().catch(() => undefined);
      await Promise.race([polite, grace]);
      const gone = new Promise<void>((resolve) => {
        if (this.exited) resolve();
        else this.child.once('exit', () => resolve());
      });
      await Promise.race([gone, grace]);
    }
    if (this.isRunning()) {
      // Until the process is really gone (a closed connection is not enough), bounded: a process stuck in the
      // kernel may take its time to die.
      const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGKILL');
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
    }
    this.connection.dispose();
    this.markExited();
  }

  /** Whether the process was started and has not exited yet (its `exit` event not seen). */
  private isRunning(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * The diagnostics the server publishes for `uri` after the document was opened (`countBefore` publishes were
   * seen before), once it has been quiet for {@link SETTLE_MS} or for as long as it has taken so far, whichever is
   * longer: a server may publish the syntax errors first and the type errors later, the later the busier the
   * machine. Not settled by `deadline`: timed out.
   */
  private settledPublish(uri: string, countBefore: number, deadline: number): Promise<ServerOutcome> {
    const opened = performance.now();
    return new Promise<ServerOutcome>((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      let seen = countBefore;
      const settle = (outcome: ServerOutcome) => {
        clearTimeout(late);
        clearTimeout(quiet);
        this.waiters.delete(check);
        resolve(outcome);
      };
      const check = () => {
        if (this.exited) return settle({ kind: 'timed out' });
        const known = this.published.get(uri);
        if (!known || known.count <= seen) return;
        seen = known.count;
        clearTimeout(quiet);
        const wait = Math.max(SETTLE_MS, performance.now() - opened);
        quiet = setTimeout(() => settle({ kind: 'diagnostics', diagnostics: known.diagnostics }), wait);
      };
      const late = setTimeout(() => settle({ kind: 'timed out' }), Math.max(0, deadline - performance.now()));
      this.waiters.add(check);
      check();
    }).then((outcome) => {
      this.assertAlive();
      return outcome;
    });
  }

  /**
   * Resolves once the server has handled the messages sent before: it answers a request about a document that is
   * not open (the symbols of the closed `uri`) at once, after them. (A `$/` request would do in theory, but
   * typescript-language-server 4 stops on one.)
   */
  private async sync(uri: string): Promise<true> {
    try {
      await this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    } catch (error) {
      // An error answer is an answer too; any other failure is the connection's.
      if (!(error instanceof ResponseError)) throw error;
    }
    return true;
  }

  /** `promise`'s value, or `undefined` when `deadline` comes first; throws when the server died meanwhile. */
  private async within<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - performance.now()));
    });
    const gone = this.stopped.then(() => {
      throw new ServerCrashedError(`${this.config.name} stopped`);
    });
    try {
      return await Promise.race([promise, late, gone]);
    } catch {
      this.markExited();
      throw new ServerCrashedError(`${this.config.name} stopped`);
    } finally {
      clearTimeout(timer);
    }
  }

  private assertAlive(): void {
    if (this.exited) throw new ServerCrashedError(`${this.config.name} stopped`);
  }

  private markExited(): void {
    if (this.exited) return;
    this.exited = true;
    this.resolveStopped();
    for (const wake of [...this.waiters]) wake();
  }
}
