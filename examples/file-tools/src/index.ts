// What the example agents share: the six file tools on a work directory, changes approved at the terminal.
export { createFileTools, type FileToolsOptions } from './file-tools.js';
export { askInTerminal } from './ask-in-terminal.js';
