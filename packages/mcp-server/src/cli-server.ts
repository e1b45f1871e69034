import { createRuntime, rejectAllApproval, yoloApproval, type Approval } from '@kimi-tools/core';
import { createMcpServer, ElicitationApproval, type ServableTool } from '@kimi-tools/mcp';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { version as packageVersion } from '../package.json';
import { CLI_NO_ELICITATION_FEEDBACK } from './approval-feedback.js';
import type { ApprovalMode } from './cli-args.js';
import { READ_ONLY_FEEDBACK, READ_ONLY_INSTRUCTIONS } from './errors.js';
import { createFileTools, FILE_TOOL_ANNOTATIONS } from './file-tools.js';

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
}

function instructions(settings: CliServerSettings): string {
  const extra =
    settings.addDirs.length > 0 ? ` The workspace also includes: ${settings.addDirs.join(', ')}.` : '';
  const outside = settings.allowOutside
    ? ' Files outside the workspace can be read too.'
    : ' Files outside the workspace cannot be read or written.';
  const head = `The working directory is ${settings.workDir}; relative paths resolve against it.${extra}${outside}`;
  if (settings.approval === 'reject')
    return `Tools to read and search files. ${head} ${READ_ONLY_INSTRUCTIONS}`;
  return `Tools to read, write, edit and search files. ${head} Read a file with ReadFile before editing or overwriting it.`;
}

/** Whether a file tool only reads: the only tools read-only mode offers. */
function onlyReads(tool: ServableTool): boolean {
  return FILE_TOOL_ANNOTATIONS[tool.name]?.readOnlyHint === true;
}

/**
 * The file tools on one runtime, confined to the work dir and `addDirs` unless `allowOutside`, served with the chosen
 * approval mode (read-only mode serves only the read tools). Not yet connected.
 */
export function createCliServer(settings: CliServerSettings): Server {
  const elicitation =
    settings.approval === 'elicit'
      ? new ElicitationApproval({ fallback: rejectAllApproval(CLI_NO_ELICITATION_FEEDBACK) })
      : undefined;
  const approval: Approval =
    elicitation ?? (settings.approval === 'yolo' ? yoloApproval() : rejectAllApproval(READ_ONLY_FEEDBACK));
  const runtime = createRuntime({
    workDir: settings.workDir,
    additionalDirs: [...settings.addDirs],
    outside: settings.allowOutside === true ? 'allow' : 'deny',
    approval,
    permissions: settings.permissions ?? [],
  });
  const allTools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } });
  // Read-only mode offers no tool it would refuse anyway, so the model does not plan changes it cannot make.
  const tools = settings.approval === 'reject' ? allTools.filter(onlyReads) : allTools;
  const server = createMcpServer(tools, {
    name: 'kimi-tools',
    version: packageVersion,
    instructions: instructions(settings),
    annotations: FILE_TOOL_ANNOTATIONS,
    structuredContent: settings.structuredContent,
    ...(elicitation ? { elicitation } : {}),
  });
  return server;
}
