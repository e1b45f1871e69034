// Run: OPENAI_API_KEY=... pnpm start <workdir> "<what to do>"   (OPENAI_MODEL, OPENAI_BASE_URL, AGENT_API=responses)
import { createFileTools } from '@kimi-tools/example-file-tools';
import OpenAI from 'openai';
import { runChatAgent } from './chat-agent.js';
import { runResponsesAgent } from './responses-agent.js';

const [workDir = process.cwd(), ...words] = process.argv.slice(2);
const run = process.env['AGENT_API'] === 'responses' ? runResponsesAgent : runChatAgent;
const answer = await run({
  client: new OpenAI(),
  model: process.env['OPENAI_MODEL'] ?? 'gpt-5',
  tools: createFileTools(workDir),
  prompt: words.join(' ') || 'Tell me what this project is.',
});
console.log(answer);
