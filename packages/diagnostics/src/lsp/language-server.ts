import { pathToFileURL } from 'node:url';
import { bytesOfName, hasLoneSurrogate, type ExecProcess, type FileSystem } from '@kimi-tools/core/fs';
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
import { serverCommand, type LanguageServerConfig } from './server-config.js';
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
 * else the next `publishDiagnostics` for the document after the change. The process runs where the files are, through
 * the runtime's file system (`exec`): on this machine, or on the remote host.
 */
export class LanguageServer {
  private readonly documents = new Map<string, OpenDocument>();
  private readonly published = new Map<
    string,
    { diagnostics: Diagnostic[]; version?: number; count: number }
  >();
  private readonly waiters = new Set<() => void>();
  private readonly connection: ProtocolConnection;
  private readonly program: ExecProcess;
  /** Settles when the program has ended (and its output closed), however it ended. */
  private readonly ended: Promise<void>;
  private hasEnded = false;
  private readonly ready: Promise<InitializeResult>;
  /** File URIs in the syntax of the file system's paths (a Windows host's, or POSIX). */
  private readonly windowsPaths: boolean;
  private exited = false;
  private resolveStopped: () => void = () => undefined;
  /** Settles when the process is gone: a pending request never answers then. */
  private readonly stopped = new Promise<void>((resolve) => {
    this.resolveStopped = resolve;
  });

  /** Starts `config`'s server in `rootDir` through `fs`, which runs programs (`capabilities.exec`). */
  constructor(
    private readonly config: LanguageServerConfig,
    fs: FileSystem,
    rootDir: string,
  ) {
    if (!fs.exec) throw new Error(`The ${fs.name} file system runs no programs.`);
    const { command, args } = serverCommand(config, fs);
    this.windowsPaths = fs.platform === 'win32';
    this.program = fs.exec(command, args, { cwd: rootDir, stdin: 'pipe' });
    // Not read, but drained: a server that writes much there must never stall on a full pipe.
    this.program.stderr.resume();
    // A server never outlives this process, however it ends (a server being closed included).
    const forgetAtExit = killAtExit(this.program);
    this.ended = this.program.exit.then(
      () => undefined,
      () => undefined,
    );
    void this.ended.then(() => {
      this.hasEnded = true;
      forgetAtExit();
      this.markExited();
    });
    this.connection = createProtocolConnection(
      new StreamMessageReader(this.program.stdout),
      new StreamMessageWriter(this.program.stdin!),
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
    const rootUri = this.uri(rootDir);
    // Nothing is written before the program runs: a write to the pipe of a command that failed to start rejects
    // inside the connection, where no one can catch it, and ends the host.
    this.ready = this.program.started
      .then((started) => {
        if (!started) throw new ServerCrashedError(`${config.name} did not start`);
        return this.connection.sendRequest(InitializeRequest.type, {
          // A process id of this machine means nothing on another host (a server there that watched it would stop
          // at once, or follow an unrelated process): none is given there.
          processId: fs.capabilities.localProcesses ? process.pid : null,
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
        });
      })
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
    const uri = this.uri(file);
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
      const polite = (async () => {
        await this.ready;
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      })().catch(() => undefined);
      const grace = gracePeriod();
      await Promise.race([polite, grace]);
      await Promise.race([this.ended, grace]);
    }
    if (!this.hasEnded) {
      // Until the program is really gone (a closed connection is not enough), bounded: a process stuck in the
      // kernel may take its time to die. A program that never started ends at once.
      this.program.kill();
      await Promise.race([this.ended, gracePeriod()]);
    }
    this.connection.dispose();
    this.markExited();
  }

  /** The `file:` URI of a path of the file system. */
  private uri(path: string): string {
    return fileUri(path, this.windowsPaths);
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

/** Resolves after {@link SHUTDOWN_GRACE_MS}, keeping nothing alive meanwhile. */
function gracePeriod(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
}

/**
 * The `file:` URI of `path`, a name that is not UTF-8 (docs/paths.md#names-that-are-not-utf-8) by its own bytes:
 * `inv\udcff.txt` is `inv%FF.txt`, where `pathToFileURL` writes each escape as U+FFFD (`%EF%BF%BD`), the URI of
 * another file. Each escape goes in as a NUL, which no path holds and which comes out as `%00`, then as its byte.
 */
function fileUri(path: string, windows: boolean): string {
  if (!hasLoneSurrogate(path)) return pathToFileURL(path, { windows }).href;
  const bytes: number[] = [];
  const marked = path.replace(/\p{Cs}/gu, (unit) => {
    const byte = bytesOfName(unit);
    if (byte === undefined) return unit;
    bytes.push(byte[0]!);
    return '\0';
  });
  let at = 0;
  return pathToFileURL(marked, { windows }).href.replace(
    /%00/g,
    () => `%${bytes[at++]!.toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
