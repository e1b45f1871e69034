import { createCheckpoints, type CheckpointsOptions } from '@kimi-tools/checkpoints';
import { createRuntime, rejectAllApproval, yoloApproval, type Approval } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import { createMcpServer, ElicitationApproval, type ServableTool } from '@kimi-tools/mcp';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { version as packageVersion } from '../package.json';
import { CLI_NO_ELICITATION_FEEDBACK } from './approval-feedback.js';
import { checkpointEachBatch } from './batch-checkpoints.js';
import { createCheckpointTools } from './checkpoint-tools.js';
import { closedWorldAnnotations } from './closed-world.js';
import type { ApprovalMode } from './cli-args.js';
import { READ_ONLY_FEEDBACK, READ_ONLY_INSTRUCTIONS } from './errors.js';
import { createFileTools } from './file-tools.js';

/** What the binary serves: directories already checked, made absolute. */
export interface CliServerSettings {
  workDir: string;
  addDirs: string[];
  approval: ApprovalMode;
  /** Send brief, display and extras as `structuredContent`. */
  structuredContent: boolean;
  /** Serve files outside the work dir and `addDirs` too (writes there still need approval); default: refused. */
  allowOutside?: boolean;
  /** Permission rules (docs/permissions.md), e.g. read from `--permissions FILE`. */
  permissions?: readonly string[];
  /** Where the files are (default: the local disk). */
  fs?: FileSystem;
  /** The host `fs` reaches over SSH (`user@host:port`), named in the instructions. */
  host?: string;
  /**
   * Checkpoints of the work dir before each batch of calls that changes files, with ListCheckpoints and Rewind
   * offered (not in read-only mode); absent: none.
   */
  checkpoints?: CheckpointsOptions;
  /** Told when a batch's checkpoint fails (its calls run without one). */
  onCheckpointError?: (error: unknown) => void;
}

function instructions(settings: CliServerSettings, checkpointed: boolean): string {
  const extra =
    settings.addDirs.length > 0 ? ` The workspace also includes: ${settings.addDirs.join(', ')}.` : '';
  const outside = settings.allowOutside
    ? ' Files outside the workspace can be read too.'
    : ' Files outside the workspace cannot be read or written.';
  const where = settings.host === undefined ? '' : ` on ${settings.host}, reached over SSH`;
  const head = `The working directory is ${settings.workDir}${where}; relative paths resolve against it.${extra}${outside}`;
  if (settings.approval === 'reject')
    return `Tools to read and search files. ${head} ${READ_ONLY_INSTRUCTIONS}`;
  const checkpoints = checkpointed
    ? ' A checkpoint of the working directory is taken before each batch of tool calls that changes files: ListCheckpoints lists them and Rewind takes files back to one.'
    : '';
  return `Tools to read, write, edit and search files. ${head} Read a file with ReadFile before editing or overwriting it.${checkpoints}`;
}

/** Whether a file tool only reads, as it declares: the only tools read-only mode offers. */
function onlyReads(tool: ServableTool): boolean {
  return tool.access === 'read';
}

/** The file tools that change files, as they declare: a batch's first call of one takes the batch's checkpoint. */
function writers(tools: readonly ServableTool[]): string[] {
  return tools.filter((tool) => tool.access === 'edit').map((tool) => tool.name);
}

/**
 * The file tools on one runtime (on `fs`, the local disk by default), confined to the work dir and `addDirs` unless
 * `allowOutside`, served with the chosen approval mode (read-only mode serves only the read tools), with a checkpoint
 * before each batch of calls that changes files when `checkpoints` is given. Not yet connected.
 */
export function createCliServer(settings: CliServerSettings): Server {
  const elicitation =
    settings.approval === 'elicit'
      ? new ElicitationApproval({
          fallback: rejectAllApproval(CLI_NO_ELICITATION_FEEDBACK),
          permissionRules: (settings.permissions ?? []).length > 0,
        })
      : undefined;
  const approval: Approval =
    elicitation ?? (settings.approval === 'yolo' ? yoloApproval() : rejectAllApproval(READ_ONLY_FEEDBACK));
  const runtime = createRuntime({
    workDir: settings.workDir,
    additionalDirs: [...settings.addDirs],
    outside: settings.allowOutside === true ? 'allow' : 'deny',
    approval,
    permissions: settings.permissions ?? [],
    ...(settings.fs ? { fs: settings.fs } : {}),
  });
  const allTools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } });
  // Read-only mode offers no tool it would refuse anyway, so the model does not plan changes it cannot make; it
  // changes nothing, so it takes no checkpoints either.
  const readOnly = settings.approval === 'reject';
  const fileTools = readOnly ? allTools.filter(onlyReads) : allTools;
  const checkpointed = settings.checkpoints !== undefined && !readOnly;
  const tools = checkpointed
    ? checkpointEachBatch(
        [...fileTools, ...createCheckpointTools(runtime)],
        createCheckpoints(runtime, settings.checkpoints),
        {
          writers: writers(fileTools),
          ...(settings.onCheckpointError ? { onError: settings.onCheckpointError } : {}),
        },
      )
    : fileTools;
  const server = createMcpServer(tools, {
    name: 'kimi-tools',
    version: packageVersion,
    instructions: instructions(settings, checkpointed),
    annotations: closedWorldAnnotations(tools),
    structuredContent: settings.structuredContent,
    ...(elicitation ? { elicitation } : {}),
  });
  return server;
}
