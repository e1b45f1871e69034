import type { ApprovalRequest, ToolReturnValue } from '@kimi-tools/core';
import { pngBytes, recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { allTools } from '../support/all-tools.js';

// docs/paths.md#how-paths-are-shown: a file name is the model's (or an attacker's) to choose, and it reaches the user
// in the approval description and the model in every message that quotes a path. A name holding `ESC [2K` and a
// carriage return would erase the line the user reads and write another ("Write file harmless.txt"). Every path shown
// must come out with its control and bidirectional characters escaped, whatever the tool and whatever the answer.

const HOSTILE = 'a\u001b[2K\rWrite file harmless.txt';
const ESCAPED = 'a\\u001b[2K\\rWrite file harmless.txt';
// Raw control and bidi characters: none may be left in anything shown.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Every text a user or a model reads from one call that may quote a path: its message, the text parts around media
 * (a string output is the file's own content, not a path), and the approval descriptions.
 */
function shownTexts(result: ToolReturnValue, requests: readonly ApprovalRequest[]): string[] {
  const output =
    typeof result.output === 'string'
      ? []
      : result.output.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return [result.message, result.brief, ...output, ...requests.map((request) => request.description)];
}

describe('a hostile file name is shown escaped by every tool', () => {
  test('in successes, refusals and errors alike', async ({ workspace }) => {
    const hostileDir = `${HOSTILE}.d`;
    await workspace.mkdir(hostileDir);
    await workspace.write(`${hostileDir}/text.txt`, 'hello\n');
    await workspace.write(`${hostileDir}/img.png`, pngBytes());
    await workspace.write(`${hostileDir}/bin.dat`, Buffer.from([0, 1, 2, 0xff]));
    const dir = workspace.at(hostileDir);
    const calls: [string, Record<string, unknown>][] = [
      ['WriteFile', { path: HOSTILE, content: 'new\n' }],
      ['WriteFile', { path: `${HOSTILE}.new/deeper/f.txt`, content: 'new\n' }],
      ['ReadFile', { path: HOSTILE }],
      ['ReadFile', { path: `${HOSTILE}.missing` }],
      ['ReadFile', { path: hostileDir }],
      ['ReadFile', { path: `${hostileDir}/img.png` }],
      ['ReadFile', { path: `${hostileDir}/bin.dat` }],
      ['ReadFile', { path: `../${HOSTILE}` }],
      ['StrReplaceFile', { path: HOSTILE, edit: { old: 'new', new: 'newer' } }],
      ['StrReplaceFile', { path: `${HOSTILE}.missing`, edit: { old: 'a', new: 'b' } }],
      ['StrReplaceFile', { path: `${hostileDir}/text.txt`, edit: { old: 'hello', new: 'bye' } }],
      ['StrReplaceFile', { path: `${hostileDir}/bin.dat`, edit: { old: 'a', new: 'b' } }],
      ['StrReplaceFile', { path: `${HOSTILE}.ipynb`, edit: { old: 'a', new: 'b' } }],
      ['ReadMediaFile', { path: `${hostileDir}/img.png` }],
      ['ReadMediaFile', { path: `${hostileDir}/text.txt` }],
      ['ReadMediaFile', { path: `${hostileDir}/bin.dat` }],
      ['ReadMediaFile', { path: `${HOSTILE}.missing` }],
      ['WriteFile', { path: `${dir}/text.txt`, content: 'changed\n' }],
      ['WriteFile', { path: `${HOSTILE}\0`, content: 'x' }],
    ];
    await workspace.write(`${HOSTILE}.ipynb`, '{}');
    const problems: string[] = [];
    let quoted = 0;
    for (const [tool, args] of calls) {
      const approval = recordingApproval();
      const tools = allTools(workspace.runtime({ approval, readBeforeWrite: false }));
      const result = await tools[tool]!.call(args);
      for (const text of shownTexts(result, approval.requests)) {
        if (UNSAFE.test(text)) problems.push(`${tool} ${JSON.stringify(args)}: ${JSON.stringify(text)}`);
        if (text.includes(ESCAPED)) quoted += 1;
      }
    }
    expect(problems).toEqual([]);
    // The name is shown, escaped, rather than dropped: most answers quote it.
    expect(quoted).toBeGreaterThanOrEqual(calls.length);
  });
});
