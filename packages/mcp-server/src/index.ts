// The public surface of @kimi-tools/mcp-server: named exports only. The `kimi-tools-mcp` binary is the package's
// main product; these are the pieces it serves, for a host that builds its own server with @kimi-tools/mcp.
export { createFileTools, FILE_TOOL_ANNOTATIONS, type FileToolOptions } from './file-tools.js';
export { createCheckpointTools, CHECKPOINT_TOOL_ANNOTATIONS } from './checkpoint-tools.js';
export { checkpointEachBatch, BATCH_PAUSE_MS, type BatchCheckpointOptions } from './batch-checkpoints.js';
