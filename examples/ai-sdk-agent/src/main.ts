// Run: AI_GATEWAY_API_KEY=... pnpm start <workdir> "<what to do>"   (AI_MODEL: a gateway model id)
import { createFileTools } from '@kimi-tools/example-file-tools';
import { runAgent } from './agent.js';

const [workDir = process.cwd(), ...words] = process.argv.slice(2);
const answer = await runAgent({
  model: process.env['AI_MODEL'] ?? 'openai/gpt-5',
  tools: createFileTools(workDir),
  prompt: words.join(' ') || 'Tell me what this project is.',
});
console.log(answer);
