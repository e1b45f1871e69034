/** The file tools `kimi-tools-mcp` serves (`createFileTools`), in the order `tools/list` lists them. */
export const FILE_TOOL_NAMES = [
  'ReadFile',
  'WriteFile',
  'StrReplaceFile',
  'NotebookEdit',
  'ApplyPatch',
  'Glob',
  'Grep',
  'ReadMediaFile',
];

/** Every tool `kimi-tools-mcp` serves: the file tools, then the checkpoint tools. */
export const SERVED_TOOL_NAMES = [...FILE_TOOL_NAMES, 'ListCheckpoints', 'Rewind'];
