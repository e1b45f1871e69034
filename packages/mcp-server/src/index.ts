// The public surface of @kimi-tools/mcp-server: named exports only. The `kimi-tools-mcp` binary is the package's
// main product; these are the pieces it serves, for a host that builds its own server with @kimi-tools/mcp.
export { createFileTools, FILE_TOOL_ANNOTATIONS, type FileToolOptions } from './file-tools.js';
