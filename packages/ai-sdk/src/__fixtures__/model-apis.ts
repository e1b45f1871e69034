import type { RecordedRequest, ReplayResponse } from '@kimi-tools/test-kit';

// Two model APIs as the replay server plays them: their recorded answers, and their refusal of a media type they do
// not take, worded as each API words it (Anthropic names the block's place; Gemini the type).

/** A call the model makes: its id, the tool's name and its input. */
export type ModelCall = [id: string, name: string, input: Record<string, unknown>];

const usage = { input_tokens: 1, output_tokens: 1 };

/** An Anthropic messages answer calling tools. */
export function anthropicToolUses(calls: readonly ModelCall[]): object {
  return {
    id: 'msg_tool_uses',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: calls.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })),
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage,
  };
}

/** An Anthropic messages answer in text. */
export function anthropicText(text: string): object {
  return {
    id: 'msg_text',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

/** The image types the messages API reads. */
const ANTHROPIC_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

interface AnthropicBlock {
  type: string;
  source?: { type: string; media_type?: string };
  content?: unknown;
}

/** The messages API's 400 for the first base64 image of a type it does not read, in a message or a tool result. */
export function anthropicRefusal(request: RecordedRequest): ReplayResponse | undefined {
  const { messages } = request.body as { messages: Array<{ content: string | AnthropicBlock[] }> };
  const places = messages.flatMap((message, m) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block, c) => {
          const inner = Array.isArray(block.content) ? (block.content as AnthropicBlock[]) : [];
          return [
            [`messages.${m}.content.${c}`, block] as const,
            ...inner.map(
              (part, k) => [`messages.${m}.content.${c}.${block.type}.content.${k}`, part] as const,
            ),
          ];
        }),
  );
  const refused = places.find(
    ([, block]) =>
      block.type === 'image' &&
      block.source?.type === 'base64' &&
      !ANTHROPIC_IMAGE_TYPES.includes(block.source.media_type ?? ''),
  );
  if (!refused) return undefined;
  const message = `${refused[0]}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  return {
    status: 400,
    body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_test' },
  };
}

const geminiUsage = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };

/** A Gemini generateContent answer calling tools. */
export function geminiFunctionCalls(calls: readonly ModelCall[]): object {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: calls.map(([id, name, args]) => ({
            functionCall: { id, name, args },
            thoughtSignature: `sig-${id}`,
          })),
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: geminiUsage,
  };
}

/** A Gemini generateContent answer in text. */
export function geminiText(text: string): object {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: geminiUsage,
  };
}

/** Whether Gemini reads inline data of a type: no BMP, ICO or GIF, but video, audio and PDFs. */
function geminiReads(mimeType: string): boolean {
  return (
    [
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/heic',
      'image/heif',
      'application/pdf',
      'text/plain',
    ].includes(mimeType) || /^(video|audio)\//.test(mimeType)
  );
}

interface GeminiPart {
  inlineData?: { mimeType: string };
  functionResponse?: { parts?: GeminiPart[] };
}

/** Gemini's 400 for the first inline data of a type it does not read, in a message or a function response. */
export function geminiRefusal(request: RecordedRequest): ReplayResponse | undefined {
  const { contents } = request.body as { contents: Array<{ parts: GeminiPart[] }> };
  const parts = contents.flatMap((content) =>
    content.parts.flatMap((part) => [part, ...(part.functionResponse?.parts ?? [])]),
  );
  const refused = parts.find((part) => part.inlineData && !geminiReads(part.inlineData.mimeType));
  if (!refused?.inlineData) return undefined;
  const message = `Unsupported MIME type: ${refused.inlineData.mimeType}`;
  return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}
