import { ELICITATION_UNSUPPORTED_TEXT } from '@kimi-tools/mcp';

// Kept apart from errors.ts, which the command line loads before the MCP SDK: this text builds on the adapter's.

/** Rejection feedback of the binary in `--approval elicit` mode when the client cannot show an approval form. */
export const CLI_NO_ELICITATION_FEEDBACK = `${ELICITATION_UNSUPPORTED_TEXT} To allow changes without asking, the user can restart kimi-tools-mcp with --approval yolo.`;
