// What the example agents share: the seven file tools on a work directory, changes approved at the terminal.
export { createAgentRuntime, createFileTools, fileToolsOn, type FileToolsOptions } from './file-tools.js';
export { askInTerminal } from './ask-in-terminal.js';
