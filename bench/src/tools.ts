// The one place where the bench builds tools, as a host would: a runtime with a yolo approval, and the tool. Each
// builder imports only its own package (dynamically), so a script that builds one tool loads what that tool needs
// and nothing else — the cold-start figure depends on it.
import type { Checkpoints } from '@kimi-tools/checkpoints';
import type { ToolRuntime } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import type { FileStamp } from '@kimi-tools/core/toolkit';
import type { ReadMediaFile } from '@kimi-tools/media';
import type { NotebookEdit } from '@kimi-tools/notebook';
import type { ApplyPatch } from '@kimi-tools/patch';
import type { ReadFile } from '@kimi-tools/read';
import type { StrReplaceFile } from '@kimi-tools/replace';
import type { Glob, Grep } from '@kimi-tools/search';
import type { WriteFile } from '@kimi-tools/write';

/** A read the session made earlier (read-before-write): the real path and what it saw. */
export interface PriorRead {
  realPath: string;
  snapshot: FileStamp;
}

/** Where a builder's runtime works: its file system (default: the local disk). */
export interface RuntimeOptions {
  fs?: FileSystem;
}

/**
 * A runtime on `workDir` with a yolo approval, as every builder below makes it (after `priorReads`, if any), on the
 * local disk or on `fs`.
 */
export async function runtimeFor(
  workDir: string,
  options: { priorReads?: readonly PriorRead[] } & RuntimeOptions = {},
): Promise<ToolRuntime> {
  const { createRuntime, yoloApproval } = await import('@kimi-tools/core');
  const runtime = createRuntime({
    workDir,
    approval: yoloApproval(),
    ...(options.fs ? { fs: options.fs } : {}),
  });
  for (const read of options.priorReads ?? [])
    runtime.fileState.recordRead(read.realPath, read.snapshot, true);
  return runtime;
}

/** Grep over `workDir`; `rgPath` overrides the ripgrep binary (used to capture the exact flags). */
export async function buildGrep(
  workDir: string,
  options: { rgPath?: string } & RuntimeOptions = {},
): Promise<Grep> {
  const [runtime, { Grep }] = await Promise.all([runtimeFor(workDir, options), import('@kimi-tools/search')]);
  return new Grep(runtime, { rgPath: options.rgPath });
}

/** Glob over `workDir`. */
export async function buildGlob(workDir: string, options: RuntimeOptions = {}): Promise<Glob> {
  const [runtime, { Glob }] = await Promise.all([runtimeFor(workDir, options), import('@kimi-tools/search')]);
  return new Glob(runtime, {});
}

/** ReadFile in `workDir`; each call of this makes a fresh runtime (no line index yet). */
export async function buildReadFile(workDir: string, options: RuntimeOptions = {}): Promise<ReadFile> {
  const [runtime, { ReadFile }] = await Promise.all([
    runtimeFor(workDir, options),
    import('@kimi-tools/read'),
  ]);
  return new ReadFile(runtime, {});
}

/** StrReplaceFile in `workDir`, in a session that has read `priorReads`. */
export async function buildStrReplaceFile(
  workDir: string,
  priorReads: readonly PriorRead[],
  options: RuntimeOptions = {},
): Promise<StrReplaceFile> {
  const [runtime, { StrReplaceFile }] = await Promise.all([
    runtimeFor(workDir, { priorReads, ...options }),
    import('@kimi-tools/replace'),
  ]);
  return new StrReplaceFile(runtime, {});
}

/** WriteFile in `workDir`, in a session that has read `priorReads`. */
export async function buildWriteFile(workDir: string, priorReads: readonly PriorRead[]): Promise<WriteFile> {
  const [runtime, { WriteFile }] = await Promise.all([
    runtimeFor(workDir, { priorReads }),
    import('@kimi-tools/write'),
  ]);
  return new WriteFile(runtime, {});
}

/** NotebookEdit in `workDir`, in a session that has read `priorReads`. */
export async function buildNotebookEdit(
  workDir: string,
  priorReads: readonly PriorRead[],
): Promise<NotebookEdit> {
  const [runtime, { NotebookEdit }] = await Promise.all([
    runtimeFor(workDir, { priorReads }),
    import('@kimi-tools/notebook'),
  ]);
  return new NotebookEdit(runtime, {});
}

/**
 * ApplyPatch in `workDir`, without read-before-write (its reference, `git apply`, reads nothing first either), with
 * limits raised to take `maxChunks` chunks.
 */
export async function buildApplyPatch(workDir: string, maxChunks: number): Promise<ApplyPatch> {
  const [{ createRuntime, yoloApproval }, { ApplyPatch }] = await Promise.all([
    import('@kimi-tools/core'),
    import('@kimi-tools/patch'),
  ]);
  const runtime = createRuntime({ workDir, approval: yoloApproval(), readBeforeWrite: false });
  return new ApplyPatch(runtime, { maxChunks, maxBytes: 64 << 20 });
}

/** ReadMediaFile in `workDir` for a model that takes images, with the default limits. */
export async function buildReadMediaFile(workDir: string): Promise<ReadMediaFile> {
  const [runtime, { ReadMediaFile }] = await Promise.all([runtimeFor(workDir), import('@kimi-tools/media')]);
  return new ReadMediaFile(runtime, { capabilities: ['image_in'] });
}

/**
 * StrReplaceFile in `workDir` on a runtime with `@kimi-tools/diagnostics` added (with `servers`: the tested
 * language servers by name), without read-before-write; returns the runtime too, to close it.
 */
export async function buildStrReplaceWithDiagnostics(
  workDir: string,
  servers: readonly ('typescript' | 'pyright')[] = [],
): Promise<{ tool: StrReplaceFile; runtime: ToolRuntime }> {
  const [{ createRuntime, yoloApproval }, { StrReplaceFile }, diagnostics] = await Promise.all([
    import('@kimi-tools/core'),
    import('@kimi-tools/replace'),
    import('@kimi-tools/diagnostics'),
  ]);
  const runtime = createRuntime({ workDir, approval: yoloApproval(), readBeforeWrite: false });
  diagnostics.addDiagnostics(runtime, {
    servers: servers.map((name) =>
      name === 'typescript' ? diagnostics.typescriptLanguageServer() : diagnostics.pyrightLanguageServer(),
    ),
  });
  return { tool: new StrReplaceFile(runtime, {}), runtime };
}

/** StrReplaceFile in `workDir` without diagnostics and without read-before-write (the reference of the above). */
export async function buildPlainStrReplace(workDir: string): Promise<StrReplaceFile> {
  const [{ createRuntime, yoloApproval }, { StrReplaceFile }] = await Promise.all([
    import('@kimi-tools/core'),
    import('@kimi-tools/replace'),
  ]);
  return new StrReplaceFile(createRuntime({ workDir, approval: yoloApproval(), readBeforeWrite: false }), {});
}

/** The checkpoints of a runtime on `workDir`, with their store in `storeDir`. */
export async function buildCheckpoints(workDir: string, storeDir: string): Promise<Checkpoints> {
  const [runtime, { createCheckpoints }] = await Promise.all([
    runtimeFor(workDir),
    import('@kimi-tools/checkpoints'),
  ]);
  return createCheckpoints(runtime, { dir: storeDir });
}

/**
 * Every tool a host can offer a model, on one runtime in `workDir`: the eight file tools (ReadMediaFile for a model
 * that takes images) and the two checkpoint tools, as a host with all of them (the MCP server) builds them.
 */
export async function buildEveryTool(workDir: string): Promise<Array<{ parameters: unknown }>> {
  const [runtime, read, write, replace, search, media, notebook, patch, checkpoints] = await Promise.all([
    runtimeFor(workDir),
    import('@kimi-tools/read'),
    import('@kimi-tools/write'),
    import('@kimi-tools/replace'),
    import('@kimi-tools/search'),
    import('@kimi-tools/media'),
    import('@kimi-tools/notebook'),
    import('@kimi-tools/patch'),
    import('@kimi-tools/checkpoints'),
  ]);
  return [
    new read.ReadFile(runtime, {}),
    new write.WriteFile(runtime, {}),
    new replace.StrReplaceFile(runtime, {}),
    new search.Glob(runtime, {}),
    new search.Grep(runtime, {}),
    new media.ReadMediaFile(runtime, { capabilities: ['image_in'] }),
    new notebook.NotebookEdit(runtime, {}),
    new patch.ApplyPatch(runtime, {}),
    new checkpoints.ListCheckpoints(runtime),
    new checkpoints.Rewind(runtime),
  ];
}
