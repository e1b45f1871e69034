import {
  createRuntime,
  createToolSet,
  SessionApproval,
  type Approval,
  type ToolRuntime,
} from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ApplyPatch } from '@kimi-tools/patch';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';
import { askInTerminal } from './ask-in-terminal.js';

/** Options of {@link createFileTools} and {@link createAgentRuntime}. */
export interface FileToolsOptions {
  /** Who approves each change (default: the person at the terminal, with "approve for this session"). */
  approval?: Approval;
}

/** The runtime the example agents work in: `workDir`, each change approved as `options` say. */
export function createAgentRuntime(workDir: string, options: FileToolsOptions = {}): ToolRuntime {
  return createRuntime({
    workDir,
    approval: options.approval ?? new SessionApproval(askInTerminal),
  });
}

/**
 * The seven file tools on one runtime: ReadFile, WriteFile, StrReplaceFile, ApplyPatch (many files in one
 * all-or-nothing change), Glob, Grep and ReadMediaFile (for a model that takes images in).
 */
export function fileToolsOn(runtime: ToolRuntime) {
  return [
    new ReadFile(runtime),
    new WriteFile(runtime),
    new StrReplaceFile(runtime),
    new ApplyPatch(runtime),
    new Glob(runtime),
    new Grep(runtime),
    new ReadMediaFile(runtime, { capabilities: ['image_in'] }),
  ];
}

/** The seven file tools ({@link fileToolsOn}) on a runtime in `workDir`, as one tool set. */
export function createFileTools(workDir: string, options: FileToolsOptions = {}) {
  return createToolSet(fileToolsOn(createAgentRuntime(workDir, options)));
}
