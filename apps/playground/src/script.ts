import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ANSWER_FORMS, parseAnswer } from './answers.js';

/** The script `pnpm playground` runs when no `--script` is given (next to `src/` and `dist/`). */
export const DEFAULT_SCRIPT_PATH = fileURLToPath(new URL('../scripts/default.json', import.meta.url));

/** What a file must look like after a step. Paths are relative to the work dir, or absolute. */
export const FileExpectation = z
  .object({
    path: z.string().min(1).describe('The file, relative to the work dir or absolute; placeholders allowed.'),
    content: z
      .string()
      .optional()
      .describe('The exact content (compared as UTF-8 bytes, so `\\r\\n` counts).'),
    contains: z.string().optional().describe('A substring the content must contain.'),
    exists: z.boolean().optional().describe('Whether the file must exist (false: it must not).'),
    lineEndings: z
      .enum(['lf', 'crlf'])
      .optional()
      .describe('Every line break of the file must be this one (checked on the bytes).'),
  })
  .strict();

/** What a file must look like after a step. */
export type FileExpectation = z.output<typeof FileExpectation>;

/** One change the scripted user makes to the proposal before accepting it. */
const ScriptedEditSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .optional()
      .describe('The file whose proposal is edited (placeholders allowed); the only one when left out.'),
    old: z.string().min(1).describe('Text of the proposal, replaced where it first stands.'),
    new: z.string().describe('What the user writes instead.'),
  })
  .strict();

/** What a step's result must be; every field is optional, and only the fields given are checked. */
export const StepExpectation = z
  .object({
    isError: z.boolean().optional().describe('Whether the result must be an error.'),
    brief: z.string().optional().describe('The exact brief (`""` for none).'),
    message: z.string().optional().describe('A substring the message must contain.'),
    output: z.string().optional().describe('A substring the text of the output must contain.'),
    approval: z
      .string()
      .nullable()
      .optional()
      .describe('The action the call asked approval for (e.g. `edit file`), or null when it must ask none.'),
    file: z
      .union([FileExpectation, z.array(FileExpectation)])
      .optional()
      .describe('Files to check after the step.'),
  })
  .strict();

/** What a step's result must be. */
export type StepExpectation = z.output<typeof StepExpectation>;

/**
 * One turn of the fake model: optional words (`say`), then optionally one tool call in function-calling form
 * (`name` + `arguments`, the arguments as a JSON object or as the JSON text a model streams), the scripted
 * user's `answer` to its approval prompt, and expectations. Or a message of the user (`user`), at which the
 * playground takes a checkpoint, as a host does at each user message.
 */
export const ScriptStep = z
  .object({
    user: z.string().min(1).optional().describe('What the user says: a checkpoint is taken before it.'),
    say: z.string().optional().describe('What the model says before its call.'),
    name: z.string().min(1).optional().describe('The tool to call, e.g. `ReadFile`.'),
    arguments: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('The call arguments: a JSON object, or its JSON text.'),
    answer: z
      .string()
      .refine((text) => parseAnswer(text) !== undefined, `an answer is ${ANSWER_FORMS}`)
      .optional()
      .describe(
        "The user's answer to this call's approval prompt: y, a (a:file, a:dir), n, n:FEEDBACK, h:HUNKS (e.g. h:h1+h3) or e (edit).",
      ),
    edit: z
      .array(ScriptedEditSchema)
      .min(1)
      .optional()
      .describe("With answer e: the user's changes to the proposal before accepting it, made in order."),
    expect: StepExpectation.optional().describe('What the result must be.'),
  })
  .strict()
  .refine(
    (step) => step.name !== undefined || step.say !== undefined || step.user !== undefined,
    'a step needs a `name` (a call), `say` or `user`',
  )
  .refine(
    (step) => step.user === undefined || (step.say === undefined && step.name === undefined),
    'a `user` step is the user talking: its `say` and `name` go in a step of their own',
  )
  .refine((step) => step.name !== undefined || step.arguments === undefined, '`arguments` need a `name`')
  .refine(
    (step) => step.name !== undefined || (step.answer === undefined && step.expect === undefined),
    '`answer` and `expect` belong to a call: add a `name`',
  )
  .refine(
    (step) => step.edit === undefined || parseAnswer(step.answer ?? '')?.kind === 'edit',
    '`edit` is what answer `e` writes: add `"answer": "e"`',
  );

/** One turn of the fake model. */
export type ScriptStep = z.output<typeof ScriptStep>;

/** A session script: the steps, in order. */
export const Script = z.array(ScriptStep).min(1, 'a script needs at least one step');

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `at ${issue.path.map(String).join('.')}: ` : '';
      return `  ${where}${issue.message}`;
    })
    .join('\n');
}

/** Parses a script from JSON text; `source` names it in errors. */
export function parseScript(text: string, source: string): { steps: ScriptStep[] } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `${source} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = Script.safeParse(json);
  if (!parsed.success)
    return { error: `${source} is not a valid playground script:\n${describeIssues(parsed.error)}` };
  return { steps: parsed.data };
}

/** Reads and parses a script file. */
export async function loadScript(file: string): Promise<{ steps: ScriptStep[] } | { error: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return { error: `Cannot read the script ${file}: ${(error as Error).message}` };
  }
  return parseScript(text, file);
}
