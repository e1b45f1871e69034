import { createRuntime, createToolSet, SessionApproval, type Approval } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ApplyPatch } from '@kimi-tools/patch';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';
import { askInTerminal } from './ask-in-terminal.js';

/** Options of {@link createFileTools}. */
export interface FileToolsOptions {
  /** Who approves each change (default: the person at the terminal, with "approve for this session"). */
  approval?: Approval;
}

/**
 * The seven file tools on one runtime confined to `workDir`: ReadFile, WriteFile, StrReplaceFile, ApplyPatch (many
 * files in one all-or-nothing change), Glob, Grep and ReadMediaFile (for a model that takes images in), as one tool
 * set.
 */
export function createFileTools(workDir: string, options: FileToolsOptions = {}) {
  const runtime = createRuntime({
    workDir,
    approval: options.approval ?? new SessionApproval(askInTerminal),
  });
  return createToolSet([
    new ReadFile(runtime),
    new WriteFile(runtime),
    new StrReplaceFile(runtime),
    new ApplyPatch(runtime),
    new Glob(runtime),
    new Grep(runtime),
    new ReadMediaFile(runtime, { capabilities: ['image_in'] }),
  ]);
}
