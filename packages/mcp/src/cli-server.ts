import { createRuntime, rejectAllApproval, yoloApproval, type Approval } from '@kimi-tools/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovalMode } from './cli-args.js';
import { createMcpServer } from './create-mcp-server.js';
import { ElicitationApproval } from './elicitation-approval.js';
import { CLI_NO_ELICITATION_FEEDBACK, READ_ONLY_FEEDBACK } from './errors.js';
import { createFileTools, FILE_TOOL_ANNOTATIONS } from './file-tools.js';

/** What the binary serves: directories already checked, made absolute. */
export interface CliServerSettings {
  workDir: string;
  addDirs: string[];
  approval: ApprovalMode;
  /** Send brief, display and extras as `structuredContent`. */
  structuredContent: boolean;
}

function instructions(settings: CliServerSettings): string {
  const extra =
    settings.addDirs.length > 0 ? ` The workspace also includes: ${settings.addDirs.join(', ')}.` : '';
  return (
    `Tools to read, write, edit and search files. The working directory is ${settings.workDir}; relative paths ` +
    `resolve against it.${extra} Read a file with ReadFile before editing or overwriting it.`
  );
}

/** The seven file tools on one runtime, served with the chosen approval mode (not yet connected). */
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
    approval,
  });
  const tools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } });
  const server = createMcpServer(tools, {
    name: 'kimi-tools',
    instructions: instructions(settings),
    annotations: FILE_TOOL_ANNOTATIONS,
    structuredContent: settings.structuredContent,
    ...(elicitation ? { elicitation } : {}),
  });
  return server;
}
