// The public surface of @kimi-tools/mcp-server: named exports only. The `kimi-tools-mcp` binary is the package's
// main product; these are the pieces it serves, for a host that builds its own server with @kimi-tools/mcp.
export { createFileTools, type FileToolOptions } from './file-tools.js';
export { createCheckpointTools } from './checkpoint-tools.js';
export { closedWorldAnnotations } from './closed-world.js';
export { checkpointEachBatch, BATCH_PAUSE_MS, type BatchCheckpointOptions } from './batch-checkpoints.js';
