import { AsyncLocalStorage } from 'node:async_hooks';
import { rejectAllApproval, SessionApproval } from '@kimi-tools/core';
import { errorText } from '@kimi-tools/core/toolkit';
import type { Approval, ApprovalRequest, ApprovalResponse } from '@kimi-tools/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { approvalFromElicitation, approvalMessage, approvalSchema } from './approval-form.js';
import {
  FORM_WITHDRAWN_MESSAGE,
  MALFORMED_ANSWER_TEXT,
  NO_ELICITATION_FEEDBACK,
  noValidAnswerMessage,
} from './errors.js';
import { trackProtocolVersion } from './protocol-version.js';

/** Default time to wait for the user's answer: ten minutes (the SDK's own default of 60 s is too short for people). */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 600_000;

/** Options of {@link ElicitationApproval}. */
export interface ElicitationApprovalOptions {
  /** Decides when the client has no form elicitation (or no server is attached). Default: reject with {@link NO_ELICITATION_FEEDBACK}. */
  fallback?: Approval;
  /** Milliseconds to wait for the user's answer before the change is rejected (default 10 minutes). */
  timeoutMs?: number;
  /**
   * Whether the runtime has permission rules (`createRuntime({ permissions })`): the form then says so when no rule
   * decided the change (a form an `ask` rule sent always names that rule).
   */
  permissionRules?: boolean;
}

/**
 * Asks the user through MCP elicitation: a form with the description and the diff, answered with approve,
 * approve for session (remembered per action by this instance) or reject with optional feedback; where the change and
 * the client's protocol allow, the approval may keep only some hunks or give the user's version of a small file. Clients without
 * form elicitation get the `fallback` decision. Give it to `createMcpServer` as `options.elicitation` (or `attach`
 * the server yourself): the runtime needs the approval before the tools exist, and the server needs the tools.
 */
export class ElicitationApproval implements Approval {
  private server: Server | undefined;
  private readonly session: SessionApproval;
  private readonly fallback: Approval;
  private readonly timeoutMs: number;
  private readonly permissionRules: boolean;
  // The tools/call request being served, so its elicitations travel with it (HTTP transports route by request).
  private readonly currentCall = new AsyncLocalStorage<RequestId>();
  private protocolVersion: () => string | undefined = () => undefined;

  constructor(options: ElicitationApprovalOptions = {}) {
    this.fallback = options.fallback ?? rejectAllApproval(NO_ELICITATION_FEEDBACK);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
    this.permissionRules = options.permissionRules === true;
    this.session = new SessionApproval((request, signal) => this.elicit(request, signal));
  }

  /**
   * The server whose client is asked. Attach it before it connects, so the form can follow the protocol version its
   * client negotiates (attached later, the form is the latest version's).
   */
  attach(server: Server): void {
    this.server = server;
    this.protocolVersion = trackProtocolVersion(server);
  }

  /**
   * Runs `task` on behalf of the tools/call request `requestId`: elicitations it makes are sent as part of that
   * request, which Streamable HTTP needs to reach the client. `createMcpServer` does this when given the approval.
   */
  runInCall<T>(requestId: RequestId, task: () => Promise<T>): Promise<T> {
    return this.currentCall.run(requestId, task);
  }

  /** Whether the attached server's client declared form elicitation (known once it has initialised). */
  canElicit(): boolean {
    return Boolean(this.server?.getClientCapabilities()?.elicitation?.form);
  }

  /** Asks through the client (unless approved for the session), or lets the fallback decide when it cannot ask. */
  async request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
    if (!this.canElicit()) return this.fallback.request(request, signal);
    return this.session.request(request, signal);
  }

  private async elicit(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
    const server = this.server;
    if (!server) return this.fallback.request(request, signal);
    try {
      const result = await server.elicitInput(
        {
          mode: 'form',
          message: approvalMessage(request, { permissionRules: this.permissionRules }),
          requestedSchema: approvalSchema(request, this.protocolVersion()),
        },
        { timeout: this.timeoutMs, ...(signal ? { signal } : {}), ...this.relatedRequest() },
      );
      return (
        approvalFromElicitation(result, request) ??
        this.unanswered(server, noValidAnswerMessage(MALFORMED_ANSWER_TEXT))
      );
    } catch (error) {
      // The call's own cancel withdrew the form: that is what happened, not an answer that went wrong.
      if (signal?.aborted) return this.unanswered(server, FORM_WITHDRAWN_MESSAGE);
      return this.unanswered(server, noValidAnswerMessage(errorText(error)));
    }
  }

  /**
   * No answer (timeout, disconnect, a reply the form does not allow, the call cancelled) never approves. Nothing of it
   * reaches the agent as the user's feedback: the change is rejected plainly, and the server's `onerror` hears why.
   */
  private unanswered(server: Server, message: string): ApprovalResponse {
    server.onerror?.(new Error(message));
    return { kind: 'reject' };
  }

  private relatedRequest(): { relatedRequestId?: RequestId } {
    const requestId = this.currentCall.getStore();
    return requestId === undefined ? {} : { relatedRequestId: requestId };
  }
}
