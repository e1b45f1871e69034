import type { ToolAccess } from '@kimi-tools/core/toolkit';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * The MCP hints a tool's declared `access` implies (docs/permissions.md#tools-and-groups): `read`, it only reads
 * (`readOnlyHint`); `edit`, it changes files, and a change may overwrite what was there and differs call to call
 * (`destructiveHint`, not `idempotentHint`). Nothing for a tool that declares neither: whether it reaches beyond the
 * files (`openWorldHint`) is not something `access` says.
 */
export function accessAnnotations(access: ToolAccess | undefined): ToolAnnotations {
  if (access === 'read') return { readOnlyHint: true };
  if (access === 'edit') return { readOnlyHint: false, destructiveHint: true, idempotentHint: false };
  return {};
}
