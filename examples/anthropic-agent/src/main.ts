// Run: ANTHROPIC_API_KEY=... pnpm start <workdir> "<what to do>"   (ANTHROPIC_MODEL to choose the model)
import Anthropic from '@anthropic-ai/sdk';
import { createFileTools } from '@kimi-tools/example-file-tools';
import { runAgent } from './agent.js';

const [workDir = process.cwd(), ...words] = process.argv.slice(2);
const answer = await runAgent({
  client: new Anthropic(),
  model: process.env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-5',
  tools: createFileTools(workDir),
  prompt: words.join(' ') || 'Tell me what this project is.',
});
console.log(answer);
