// Run: AI_GATEWAY_API_KEY=... pnpm start <workdir> "<what to do>"   (AI_MODEL: a gateway model id)
import { createCheckpoints, ListCheckpoints, Rewind } from '@kimi-tools/checkpoints';
import { createToolSet } from '@kimi-tools/core';
import { createAgentRuntime, fileToolsOn } from '@kimi-tools/example-file-tools';
import { runAgent } from './agent.js';

const [workDir = process.cwd(), ...words] = process.argv.slice(2);
const runtime = createAgentRuntime(workDir);
// A checkpoint before each step, in ~/.local/state/kimi-tools/checkpoints/: the model can list them and rewind.
const checkpoints = createCheckpoints(runtime);
const answer = await runAgent({
  model: process.env['AI_MODEL'] ?? 'openai/gpt-5',
  tools: createToolSet([...fileToolsOn(runtime), new ListCheckpoints(runtime), new Rewind(runtime)]),
  prompt: words.join(' ') || 'Tell me what this project is.',
  checkpoints,
});
console.log(answer);
