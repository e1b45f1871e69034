import { createInterface } from 'node:readline/promises';
import { unifiedDiffLines, type ApprovalRequest, type ApprovalResponse } from '@kimi-tools/core';
import { showUnsafeCharacters } from '@kimi-tools/core/toolkit';

/**
 * The change's unified diff for the terminal, each line as core shows a line to a user (ESC as `␛`, a C1 control or a
 * bidirectional override as a `\u` escape): the file's own ESC sequences would otherwise drive the terminal, clearing
 * or rewriting what the user approves from.
 */
function terminalDiff(request: ApprovalRequest): string {
  return unifiedDiffLines(request.display)
    .map((line) => showUnsafeCharacters(line.text))
    .join('\n');
}

/**
 * Shows a change (what, where, and its exact diff) on stderr and asks the person at the terminal: `y` approves,
 * `a` approves this kind of change for the session, anything else rejects, with the text typed after `n` as feedback
 * for the model.
 */
export async function askInTerminal(
  request: ApprovalRequest,
  signal?: AbortSignal,
): Promise<ApprovalResponse> {
  process.stderr.write(`\n${request.sender}: ${request.description}\n${terminalDiff(request)}\n`);
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await terminal.question('[y] approve  [a] approve for this session  [n <feedback>] reject › ', {
        ...(signal ? { signal } : {}),
      })
    ).trim();
    if (answer === 'y') return { kind: 'approve' };
    if (answer === 'a') return { kind: 'approve_for_session' };
    const feedback = answer.replace(/^n\s*/, '');
    return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
  } finally {
    terminal.close();
  }
}
