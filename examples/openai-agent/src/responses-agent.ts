import { responsesTools, runResponsesToolCalls } from '@kimi-tools/openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { AgentOptions } from './chat-agent.js';

/**
 * The same loop on the responses API: the output items the model produced go back as input, with the outputs of
 * its function calls, until a response has no function call. Resolves to the model's last text.
 */
export async function runResponsesAgent({
  client,
  model,
  tools,
  prompt,
  maxTurns = 30,
}: AgentOptions): Promise<string> {
  const input: ResponseInputItem[] = [{ role: 'user', content: prompt }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const response = await client.responses.create({ model, input, tools: responsesTools(tools) });
    const outputs = await runResponsesToolCalls(tools, response.output);
    if (outputs.length === 0) return response.output_text;
    input.push(...(response.output as ResponseInputItem[]), ...outputs);
  }
  throw new Error(`The model was still calling tools after ${maxTurns} turns.`);
}
