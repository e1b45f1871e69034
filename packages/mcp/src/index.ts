// The public surface of @kimi-tools/mcp: named exports only.
export { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
export type { ServableTool } from './servable-tool.js';
export { accessAnnotations } from './access-annotations.js';
export {
  toCallToolResult,
  type StructuredToolResult,
  type ToCallToolResultOptions,
} from './to-call-tool-result.js';
/** The text sent for a result with neither message nor output (core's, re-exported). */
export { EMPTY_RESULT_TEXT } from '@kimi-tools/core/toolkit';
export {
  ElicitationApproval,
  DEFAULT_ELICITATION_TIMEOUT_MS,
  type ElicitationApprovalOptions,
} from './elicitation-approval.js';
export { NO_ELICITATION_FEEDBACK, ELICITATION_UNSUPPORTED_TEXT } from './errors.js';
export {
  approvalMessage,
  type ApprovalMessageOptions,
  approvalSchema,
  approvalFromElicitation,
  APPROVAL_DECISIONS,
} from './approval-form.js';
export { formatDiffText, MAX_DIFF_TEXT_LINES } from './diff-text.js';
export { MULTI_SELECT_SINCE, FORM_CONTENT_MAX_BYTES } from './shaped-fields.js';
export { AnsweringStdioTransport, type AnsweringStdioTransportOptions } from './answering-stdio-transport.js';
