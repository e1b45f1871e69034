import { promises as fs } from 'node:fs';
import type { ToolReturnValue } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { test } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { expect } from 'vitest';
import { report } from '../support/report.js';
import { SLIP_CASES, type SlipCall, type SlipCase } from './slip-cases.js';

// Issue 20: the slips models make most when editing, each with the file it should leave or the refusal it should get.
// Every case runs on a real file: written, read with ReadFile, changed by the session's earlier calls or from outside,
// then the call with the slip. A wrong apply is a file left in any state but the intended one.

type Verdict = 'correct' | 'wrong-apply' | 'wrong-answer';

async function judge(
  slip: SlipCase,
  result: ToolReturnValue,
  before: string,
  after: string,
): Promise<Verdict> {
  if ('file' in slip.intended) {
    if (after === slip.intended.file && !result.isError) return 'correct';
    return after === before ? 'wrong-answer' : 'wrong-apply';
  }
  if (after !== before) return 'wrong-apply';
  return result.isError && result.brief === slip.intended.refusal ? 'correct' : 'wrong-answer';
}

test('the slip corpus: every slip leaves the intended file or gets the intended refusal', async ({
  workspace,
}) => {
  const verdicts: Array<{ name: string; verdict: Verdict; message: string }> = [];
  for (const [index, slip] of SLIP_CASES.entries()) {
    const runtime = workspace.runtime();
    const tools = {
      ReadFile: new ReadFile(runtime),
      StrReplaceFile: new StrReplaceFile(runtime),
      WriteFile: new WriteFile(runtime),
    };
    const file = await workspace.write(`case-${index}/${slip.file}`, slip.content);
    const call = (slipCall: SlipCall) =>
      slipCall.tool === 'WriteFile'
        ? tools.WriteFile.call({ path: file, content: slipCall.content })
        : tools.StrReplaceFile.call({ path: file, edit: slipCall.edit });
    expect((await tools.ReadFile.call({ path: file })).isError).toBe(false);
    for (const step of slip.before ?? []) {
      if ('outside' in step) await fs.writeFile(file, step.outside);
      else expect((await call(step.call)).isError, `${slip.name}: an earlier call failed`).toBe(false);
    }
    const before = await fs.readFile(file, 'utf8');
    const result = await call(slip.call);
    const after = await fs.readFile(file, 'utf8');
    verdicts.push({
      name: slip.name,
      verdict: await judge(slip, result, before, after),
      message: result.message,
    });
  }
  const correct = verdicts.filter((entry) => entry.verdict === 'correct').length;
  const wrongApply = verdicts.filter((entry) => entry.verdict === 'wrong-apply').length;
  report('slips', { correct: `${correct}/${verdicts.length}`, 'wrong-apply': wrongApply });
  console.log(`correct ${correct}/${verdicts.length}, wrong-apply ${wrongApply}`);
  expect(verdicts.length).toBeGreaterThanOrEqual(120);
  expect(verdicts.filter((entry) => entry.verdict !== 'correct')).toEqual([]);
  expect(wrongApply).toBe(0);
});
