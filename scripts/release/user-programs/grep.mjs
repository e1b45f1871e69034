// A user of @kimi-tools/search alone: Grep in src/ with the ripgrep that @vscode/ripgrep installed.
import { rgPath } from '@vscode/ripgrep';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { Grep } from '@kimi-tools/search';

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
const { isError, output, message } = await new Grep(runtime).call({
  pattern: 'needle',
  path: 'src',
  output_mode: 'content',
});
console.log(JSON.stringify({ isError, output, message, rgPath }));
