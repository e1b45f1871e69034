import {
  SessionApproval,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
  type ApprovalScope,
  type FileAction,
} from '@kimi-tools/core';
import { describeAnswer, parseAnswer, parseScope, scopeWords, type PlaygroundAnswer } from './answers.js';
import { renderDiff } from './diff-render.js';
import { editorContent, scriptedContent, type EditedContent, type ScriptedEdit } from './edit-proposal.js';
import type { Output } from './output.js';
import type { LinePrompter } from './terminal-prompt.js';

/** What a permission rule decided without asking (what `decidedByRule` is told). */
type RuleDecision = Parameters<NonNullable<Approval['decidedByRule']>>[1];

/** Who answers the requests that neither the step nor `--answers` answered. */
export type FallbackAnswerer =
  /** The person at the terminal (`y`, `a` + its scope, `n` + feedback, `h`, `e`). */
  | { kind: 'interactive'; prompter: LinePrompter }
  /** Nobody: approve, and say why (`--yolo`, no terminal). */
  | { kind: 'auto'; reason: string };

/** Options of {@link PlaygroundApproval}. */
export interface PlaygroundApprovalOptions {
  output: Output;
  /** How a real path is shown (relative to the work dir when inside it). */
  showPath: (realPath: string) => string;
  /** `--answers`, in order: used by requests that their step does not answer. */
  answers: readonly PlaygroundAnswer[];
  fallback: FallbackAnswerer;
  /** The command that edits a proposal (`$VISUAL` or `$EDITOR`), if any. */
  editor?: string;
  /** Turns a path of a scripted edit into an absolute one (placeholders, relative to the work dir). */
  resolvePath?: (file: string) => string;
  /** Whether the runtime has permission rules: a request then says when no rule decided it. */
  permissionRules?: boolean;
}

/** One approval request of a step and how it was answered. */
export interface ApprovalRecord {
  action: FileAction;
  description: string;
  answer: ApprovalResponse;
  /** Where the answer came from, as shown in the transcript. */
  source: string;
}

/** The choices the terminal offers for `request`: hunk by hunk only with several hunks, edit only with content. */
function choicesFor(request: ApprovalRequest): [key: string, words: string][] {
  const choices: [string, string][] = [
    ['y', 'approve'],
    ['a', 'approve for this session'],
    ['n', 'reject'],
  ];
  if ((request.hunks?.length ?? 0) > 1) choices.push(['h', 'hunk by hunk']);
  if ((request.editable?.length ?? 0) > 0) choices.push(['e', 'edit']);
  return choices;
}

function promptFor(request: ApprovalRequest): string {
  return `${choicesFor(request)
    .map(([key, words]) => `[${key}] ${words}`)
    .join('  ')} › `;
}

/** `Please answer y, a or n.`, with the keys `request` offers. */
function pleaseAnswer(request: ApprovalRequest): string {
  const keys = choicesFor(request).map(([key]) => key);
  return `Please answer ${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]!}.`;
}

/** The request's files, as the transcript shows them. */
function shownFiles(request: ApprovalRequest, showPath: (realPath: string) => string): string[] {
  return (request.paths ?? [request.path]).map(showPath);
}

/** Why a request was approved without asking: the remembered answer of the session that covers it. */
function sessionSource(request: ApprovalRequest, scope: ApprovalScope): string {
  const several = (request.paths?.length ?? 1) > 1;
  if (scope === 'file')
    return several ? 'these files were approved for this session' : 'this file was approved for this session';
  if (scope === 'directory')
    return several
      ? 'their directories were approved for this session'
      : 'its directory was approved for this session';
  return `"${request.action}" was approved for this session`;
}

/**
 * The playground's approval: prints every request with its diff, then takes the answer from, in order, the
 * current step's own `answer`, the next `--answers` entry, the terminal, or automatic approval. It wraps a core
 * {@link SessionApproval}, so `a` approves later requests of the same action without asking (`a:file`: of the same
 * files, `a:dir`: under the same directories). A step's own rejection still applies after an `a`: the script says
 * what the user does at that step. A change a permission rule decided is printed the same way, with the rule that
 * decided it; a request an `ask` rule sent names that rule, and any other says that no rule decided it when the
 * runtime has rules.
 */
export class PlaygroundApproval implements Approval {
  private readonly session: SessionApproval;
  private readonly queue: PlaygroundAnswer[];
  private answersUsed = 0;
  private stepAnswer: PlaygroundAnswer | undefined;
  private stepEdits: readonly ScriptedEdit[] | undefined;
  private records: ApprovalRecord[] = [];
  // The source of the answer being given, set by whoever answers, read when the request is recorded.
  private lastSource = '';

  constructor(private readonly options: PlaygroundApprovalOptions) {
    this.queue = [...options.answers];
    this.session = new SessionApproval((request) => this.ask(request));
  }

  /**
   * Starts a step; `answer` is the step's scripted answer (`y`, `a`, `n`, `n:FEEDBACK`, `h:HUNKS`, `e`), if any, and
   * `edits` the scripted user's changes to the proposal that `e` writes.
   */
  beginStep(answer: string | undefined, edits?: readonly ScriptedEdit[]): void {
    this.stepAnswer = answer === undefined ? undefined : parseAnswer(answer);
    this.stepEdits = edits;
    this.records = [];
  }

  /** Ends a step and returns the requests it made. */
  endStep(): ApprovalRecord[] {
    this.stepAnswer = undefined;
    this.stepEdits = undefined;
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
    const approved = request.rule === undefined ? this.session.approvedScope(request) : undefined;
    if (this.stepAnswer?.kind === 'reject' && approved !== undefined) {
      answer = this.stepAnswer;
      this.lastSource = "this step's scripted answer";
    } else if (approved !== undefined) {
      answer = await this.session.request(request, signal);
      this.lastSource = sessionSource(request, approved);
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
    const described = describeAnswer(answer, shownFiles(request, this.options.showPath));
    this.options.output.line(`  ${c.dim('└')} ${colour(described)} ${c.dim(`(${this.lastSource})`)}`);
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
    } else if (this.options.permissionRules === true) {
      output.line(`  ${c.dim('│')} ${c.dim('no permission rule decided this change')}`);
    }
    for (const line of renderDiff(request.display, { colors: c, showPath }))
      output.line(`  ${c.dim('│')} ${line}`);
    const hunks = request.hunks ?? [];
    if (hunks.length > 1) {
      const list = hunks.map((hunk) => `${hunk.id} ${showPath(hunk.path)}:${hunk.oldStart}`).join(', ');
      output.line(`  ${c.dim('│')} ${c.dim(`hunks: ${list}`)}`);
    }
    if (request.answerRefused !== undefined) {
      output.line(
        `  ${c.dim('│')} ${c.yellow(`the answer was refused: ${request.answerRefused}; asked again`)}`,
      );
    }
  }

  // Answers a request the session memory does not cover (SessionApproval's callback).
  private async ask(request: ApprovalRequest): Promise<ApprovalResponse> {
    if (this.stepAnswer) {
      this.lastSource = "this step's scripted answer";
      return this.resolve(this.stepAnswer, request);
    }
    const next = this.queue.shift();
    if (next) {
      this.answersUsed++;
      this.lastSource = `--answers #${this.answersUsed}`;
      return this.resolve(next, request);
    }
    const { fallback } = this.options;
    if (fallback.kind === 'auto') {
      this.lastSource = `auto: ${fallback.reason}`;
      return { kind: 'approve' };
    }
    return this.askTerminal(fallback.prompter, request);
  }

  /** A scripted answer as a response: `e` becomes the step's scripted edit, or what `$EDITOR` saves. */
  private async resolve(answer: PlaygroundAnswer, request: ApprovalRequest): Promise<ApprovalResponse> {
    if (answer.kind !== 'edit') return answer;
    const edited = this.stepEdits
      ? await scriptedContent(request, this.stepEdits, this.options.resolvePath ?? ((file) => file))
      : await this.runEditor(request);
    if ('content' in edited) return { kind: 'approve', content: edited.content };
    // A scripted edit that cannot be made is the script's mistake: say so, and write nothing.
    this.lastSource += `; the edit failed: ${edited.error}`;
    return { kind: 'reject' };
  }

  private async runEditor(request: ApprovalRequest, prompter?: LinePrompter): Promise<EditedContent> {
    const { editor, showPath } = this.options;
    if (editor === undefined) return { error: 'set $EDITOR (or $VISUAL) to edit the proposal' };
    const edit = () => editorContent(request, editor, showPath);
    return prompter ? prompter.suspend(edit) : edit();
  }

  private async askTerminal(prompter: LinePrompter, request: ApprovalRequest): Promise<ApprovalResponse> {
    const c = this.options.output.colors;
    const bar = `  ${c.dim('│')}`;
    for (;;) {
      const line = await prompter.question(`${bar} ${promptFor(request)}`);
      if (line === null) return this.inputEnded(prompter);
      const word = line.trim().toLowerCase();
      if ((word === 'h' || word === 'hunks') && (request.hunks?.length ?? 0) > 1) {
        const chosen = await this.askHunks(prompter, request);
        if (chosen) return chosen;
        return this.inputEnded(prompter);
      }
      const answer = parseAnswer(line);
      // A plain `a` asks what the session approval covers; `a:file` typed in one go already says.
      if (answer?.kind === 'approve_for_session' && !line.includes(':')) {
        const scope = await this.askScope(prompter, request);
        if (scope === undefined) return this.inputEnded(prompter);
        this.lastSource = 'you';
        return scope === 'action' ? { kind: 'approve_for_session' } : { kind: 'approve_for_session', scope };
      }
      if (answer?.kind === 'edit') {
        const edited = await this.runEditor(request, prompter);
        if ('content' in edited) {
          this.lastSource = 'you';
          return { kind: 'approve', content: edited.content };
        }
        this.options.output.line(`${bar} ${c.yellow(`Not edited: ${edited.error}.`)}`);
        continue;
      }
      if (answer) {
        this.lastSource = 'you';
        // A plain `n` asks for feedback; `n:FEEDBACK` typed in one go already carries it.
        if (answer.kind !== 'reject' || line.includes(':')) return answer;
        const feedback = await this.askFeedback(prompter);
        return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
      }
      this.options.output.line(`${bar} ${c.yellow(pleaseAnswer(request))}`);
    }
  }

  /** Asks y/n for each hunk, showing its lines; then feedback when some were left out. */
  private async askHunks(
    prompter: LinePrompter,
    request: ApprovalRequest,
  ): Promise<ApprovalResponse | undefined> {
    const { output, showPath } = this.options;
    const c = output.colors;
    const bar = `  ${c.dim('│')}`;
    const approved: string[] = [];
    const hunks = request.hunks ?? [];
    for (const hunk of hunks) {
      output.line(`${bar} ${c.bold(`hunk ${hunk.id}`)} ${showPath(hunk.path)}, line ${hunk.oldStart}`);
      for (const text of hunk.lines) {
        const paint = text.startsWith('-') ? c.red : text.startsWith('+') ? c.green : c.dim;
        output.line(`${bar}   ${paint(text)}`);
      }
      for (;;) {
        const line = await prompter.question(`${bar} write hunk ${hunk.id}? [y/n] › `);
        if (line === null) return undefined;
        const word = line.trim().toLowerCase();
        if (word === 'y' || word === 'yes') approved.push(hunk.id);
        else if (word !== 'n' && word !== 'no') continue;
        break;
      }
    }
    this.lastSource = 'you';
    const feedback = approved.length < hunks.length ? await this.askFeedback(prompter) : undefined;
    return feedback ? { kind: 'approve', hunks: approved, feedback } : { kind: 'approve', hunks: approved };
  }

  /**
   * Asks what an approval for the session covers: the request's files (`f`), everything under their directories
   * (`d`), or every change of its action (`a`, or Enter: what `a` meant before there were scopes).
   */
  private async askScope(
    prompter: LinePrompter,
    request: ApprovalRequest,
  ): Promise<ApprovalScope | undefined> {
    const c = this.options.output.colors;
    const bar = `  ${c.dim('│')}`;
    const files = shownFiles(request, this.options.showPath);
    const choices = [
      `[f] ${scopeWords('file', files)}`,
      `[d] ${scopeWords('directory', files)}`,
      `[a] every "${request.action}" (Enter)`,
    ].join('  ');
    for (;;) {
      const line = await prompter.question(`${bar} approve for this session: ${choices} › `);
      if (line === null) return undefined;
      const word = line.trim().toLowerCase();
      const scope = word === '' || word === 'a' ? 'action' : parseScope(word);
      if (scope !== undefined) return scope;
      this.options.output.line(`${bar} ${c.yellow('Please answer f, d or a.')}`);
    }
  }

  private async askFeedback(prompter: LinePrompter): Promise<string | undefined> {
    const c = this.options.output.colors;
    const text = (
      await prompter.question(`  ${c.dim('│')} feedback for the model (Enter for none) › `)
    )?.trim();
    return text ? text : undefined;
  }

  private inputEnded(prompter: LinePrompter): ApprovalResponse {
    this.lastSource = prompter.interrupted ? 'interrupted' : 'input ended';
    return { kind: 'reject' };
  }
}
