import {
  SessionApproval,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
  type FileAction,
} from '@kimi-tools/core';

/** What a permission rule decided without asking (what `decidedByRule` is told). */
type RuleDecision = Parameters<NonNullable<Approval['decidedByRule']>>[1];
import { describeAnswer, parseAnswer } from './answers.js';
import { renderDiff } from './diff-render.js';
import type { Output } from './output.js';
import type { LinePrompter } from './terminal-prompt.js';

/** Who answers the requests that neither the step nor `--answers` answered. */
export type FallbackAnswerer =
  /** The person at the terminal (`y`, `a`, `n` + feedback). */
  | { kind: 'interactive'; prompter: LinePrompter }
  /** Nobody: approve, and say why (`--yolo`, no terminal). */
  | { kind: 'auto'; reason: string };

/** Options of {@link PlaygroundApproval}. */
export interface PlaygroundApprovalOptions {
  output: Output;
  /** How a real path is shown (relative to the work dir when inside it). */
  showPath: (realPath: string) => string;
  /** `--answers`, in order: used by requests that their step does not answer. */
  answers: readonly ApprovalResponse[];
  fallback: FallbackAnswerer;
}

/** One approval request of a step and how it was answered. */
export interface ApprovalRecord {
  action: FileAction;
  description: string;
  answer: ApprovalResponse;
  /** Where the answer came from, as shown in the transcript. */
  source: string;
}

const PROMPT = '[y] approve  [a] approve for this session  [n] reject › ';

/**
 * The playground's approval: prints every request with its diff, then takes the answer from, in order, the
 * current step's own `answer`, the next `--answers` entry, the terminal, or automatic approval. It wraps a core
 * {@link SessionApproval}, so `a` approves later requests of the same action without asking. A step's own
 * rejection still applies after an `a`: the script says what the user does at that step. A change a permission rule
 * decided is printed the same way, with the rule that decided it; a request an `ask` rule sent names that rule.
 */
export class PlaygroundApproval implements Approval {
  private readonly session: SessionApproval;
  private readonly queue: ApprovalResponse[];
  private answersUsed = 0;
  private stepAnswer: ApprovalResponse | undefined;
  private records: ApprovalRecord[] = [];
  // The source of the answer being given, set by whoever answers, read when the request is recorded.
  private lastSource = '';

  constructor(private readonly options: PlaygroundApprovalOptions) {
    this.queue = [...options.answers];
    this.session = new SessionApproval(() => this.ask());
  }

  /** Starts a step; `answer` is the step's scripted answer (`y`, `a`, `n`, `n:FEEDBACK`), if any. */
  beginStep(answer: string | undefined): void {
    this.stepAnswer = answer === undefined ? undefined : parseAnswer(answer);
    this.records = [];
  }

  /** Ends a step and returns the requests it made. */
  endStep(): ApprovalRecord[] {
    this.stepAnswer = undefined;
    return this.records;
  }

  /** `--answers` entries not used (yet). */
  get unusedAnswers(): number {
    return this.queue.length;
  }

  async request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
    this.printRequest(request);
    let answer: ApprovalResponse;
    // A request an ask rule sent is asked whatever the session approved (SessionApproval does the same).
    const approved = request.rule === undefined && this.session.approvedScope(request) !== undefined;
    if (this.stepAnswer?.kind === 'reject' && approved) {
      answer = this.stepAnswer;
      this.lastSource = "this step's scripted answer";
    } else if (approved) {
      answer = await this.session.request(request, signal);
      this.lastSource = `"${request.action}" was approved for this session`;
    } else {
      answer = await this.session.request(request, signal);
    }
    this.records.push({
      action: request.action,
      description: request.description,
      answer,
      source: this.lastSource,
    });
    const c = this.options.output.colors;
    const colour = answer.kind === 'reject' ? c.red : c.green;
    this.options.output.line(
      `  ${c.dim('└')} ${colour(describeAnswer(answer))} ${c.dim(`(${this.lastSource})`)}`,
    );
    return answer;
  }

  /** Shows a change a permission rule allowed or denied without asking: the request, then the rule that decided. */
  decidedByRule(request: ApprovalRequest, decision: RuleDecision): void {
    this.printRequest(request);
    const c = this.options.output.colors;
    const verdict = decision.effect === 'allow' ? c.green('allowed') : c.red('denied');
    this.options.output.line(`  ${c.dim('└')} ${verdict} by the permission rule \`${decision.rule}\``);
  }

  private printRequest(request: ApprovalRequest): void {
    const { output, showPath } = this.options;
    const c = output.colors;
    output.line(`  ${c.dim('┌')} ${c.bold(c.yellow('approval'))} ${request.description}`);
    output.line(`  ${c.dim('│')} ${c.dim('action:')} ${request.action}`);
    if (request.rule !== undefined) {
      output.line(`  ${c.dim('│')} ${c.dim('asked by the permission rule')} \`${request.rule}\``);
    }
    for (const line of renderDiff(request.display, { colors: c, showPath }))
      output.line(`  ${c.dim('│')} ${line}`);
  }

  // Answers a request the session memory does not cover (SessionApproval's callback).
  private async ask(): Promise<ApprovalResponse> {
    if (this.stepAnswer) {
      this.lastSource = "this step's scripted answer";
      return this.stepAnswer;
    }
    const next = this.queue.shift();
    if (next) {
      this.answersUsed++;
      this.lastSource = `--answers #${this.answersUsed}`;
      return next;
    }
    const { fallback } = this.options;
    if (fallback.kind === 'auto') {
      this.lastSource = `auto: ${fallback.reason}`;
      return { kind: 'approve' };
    }
    return this.askTerminal(fallback.prompter);
  }

  private async askTerminal(prompter: LinePrompter): Promise<ApprovalResponse> {
    const c = this.options.output.colors;
    for (;;) {
      const line = await prompter.question(`  ${c.dim('│')} ${PROMPT}`);
      if (line === null) {
        this.lastSource = prompter.interrupted ? 'interrupted' : 'input ended';
        return { kind: 'reject' };
      }
      const answer = parseAnswer(line);
      if (answer) {
        this.lastSource = 'you';
        // A plain `n` asks for feedback; `n:FEEDBACK` typed in one go already carries it.
        if (answer.kind !== 'reject' || line.includes(':')) return answer;
        const feedback = (
          await prompter.question(`  ${c.dim('│')} feedback for the model (Enter for none) › `)
        )?.trim();
        return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
      }
      this.options.output.line(`  ${c.dim('│')} ${c.yellow('Please answer y, a or n.')}`);
    }
  }
}
