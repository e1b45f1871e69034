import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRuntime, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';
import { editedSlots, jitteryApproval, ledgerText, slotLine } from './ledger.js';

// docs/reliability.md: "Concurrent edits are either serialised or refused as stale; none is silently lost." Many
// StrReplaceFile calls race on one file, each editing its own line; afterwards each call either succeeded and its
// line is edited, or was refused as `File modified` and its line is untouched — and the file holds exactly the
// applied edits, nothing else.

const ROUNDS = iterations(8, 200, { overSsh: 4 });
const SLOTS = 24;
const FILE_MODIFIED = 'File modified';

let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace();
});
afterAll(async () => {
  await workspace.cleanup();
});

interface Agent {
  name: string;
  runtime: ToolRuntime;
  read: ReadFile;
  edit: StrReplaceFile;
}

function makeAgent(name: string, workDir: string): Agent {
  const runtime = createRuntime({ workDir, approval: jitteryApproval(4), fs: workspace.fs });
  return { name, runtime, read: new ReadFile(runtime), edit: new StrReplaceFile(runtime) };
}

interface Tally {
  applied: number;
  refused: number;
  lost: number;
  phantom: number;
  unexpected: string[];
}

function emptyTally(): Tally {
  return { applied: 0, refused: 0, lost: 0, phantom: 0, unexpected: [] };
}

/** Edits slot `slot` as `agent`; resolves with the call's result. */
function editSlot(agent: Agent, file: string, slot: number): Promise<ToolReturnValue> {
  return agent.edit.call({ path: file, edit: { old: slotLine(slot), new: slotLine(slot, agent.name) } });
}

/**
 * Judges one race: every result is applied or refused as stale, and the file shows exactly the applied edits.
 * Returns the slots whose edits were applied.
 */
async function judge(
  tally: Tally,
  filePath: string,
  calls: { agent: Agent; slot: number; result: ToolReturnValue }[],
): Promise<void> {
  const text = await fs.readFile(filePath, 'utf8');
  const edited = editedSlots(text, SLOTS);
  if (!edited) {
    tally.unexpected.push('a slot line is missing or duplicated');
    return;
  }
  const expected = new Map<number, string>();
  for (const { agent, slot, result } of calls) {
    if (!result.isError) {
      tally.applied++;
      expected.set(slot, agent.name);
      if (edited.get(slot) !== agent.name) tally.lost++;
    } else if (result.brief === FILE_MODIFIED) {
      tally.refused++;
      if (edited.get(slot) === agent.name) tally.phantom++;
    } else {
      tally.unexpected.push(`${agent.name} slot ${slot}: ${result.brief}: ${result.message}`);
    }
  }
  // Byte for byte: the applied edits and nothing else (no torn or duplicated text).
  if (text !== ledgerText(SLOTS, expected))
    tally.unexpected.push('the file is not exactly the applied edits');
}

describe('parallel StrReplaceFile calls on one file', () => {
  it('through one runtime: each edit is applied or refused as stale, none lost', async () => {
    const tally = emptyTally();
    let retried = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const workDir = path.join(workspace.root, `one-${round}`);
      await fs.mkdir(workDir);
      const file = 'ledger.txt';
      const filePath = path.join(workDir, file);
      await fs.writeFile(filePath, ledgerText(SLOTS));
      const agent = makeAgent('A', workDir);
      expect((await agent.read.call({ path: file })).isError).toBe(false);

      const slots = Array.from({ length: SLOTS }, (_, i) => i);
      const results = await Promise.all(slots.map((slot) => editSlot(agent, file, slot)));
      await judge(
        tally,
        filePath,
        slots.map((slot, i) => ({ agent, slot, result: results[i] as ToolReturnValue })),
      );

      // What a well-behaved agent does with a stale refusal: read again and retry. In the end every edit lands.
      const pending = slots.filter((_, i) => results[i]?.isError);
      for (const slot of pending) {
        for (let attempt = 0; attempt < 3; attempt++) {
          await agent.read.call({ path: file });
          retried++;
          if (!(await editSlot(agent, file, slot)).isError) break;
        }
      }
      const everything = new Map(slots.map((slot) => [slot, 'A']));
      expect(await fs.readFile(filePath, 'utf8')).toBe(ledgerText(SLOTS, everything));
      await fs.rm(workDir, { recursive: true });
    }
    report('concurrency one runtime', {
      rounds: ROUNDS,
      calls: ROUNDS * SLOTS,
      applied: tally.applied,
      refused: tally.refused,
      lost: tally.lost,
      phantom: tally.phantom,
      unexpected: tally.unexpected.length,
      retried,
    });
    expect(tally.unexpected).toEqual([]);
    expect(tally.lost).toBe(0);
    expect(tally.phantom).toBe(0);
    expect(tally.applied + tally.refused).toBe(ROUNDS * SLOTS);
  });

  it('through two runtimes (two agents that both read the file): each edit is applied or refused, none lost', async () => {
    const tally = emptyTally();
    for (let round = 0; round < ROUNDS; round++) {
      const workDir = path.join(workspace.root, `two-${round}`);
      await fs.mkdir(workDir);
      const file = 'ledger.txt';
      const filePath = path.join(workDir, file);
      await fs.writeFile(filePath, ledgerText(SLOTS));
      const agents = [makeAgent('A', workDir), makeAgent('B', workDir)];
      for (const agent of agents) expect((await agent.read.call({ path: file })).isError).toBe(false);

      const plan = Array.from({ length: SLOTS }, (_, slot) => ({ agent: agents[slot % 2] as Agent, slot }));
      const results = await Promise.all(plan.map(({ agent, slot }) => editSlot(agent, file, slot)));
      await judge(
        tally,
        filePath,
        plan.map((call, i) => ({ ...call, result: results[i] as ToolReturnValue })),
      );
      await fs.rm(workDir, { recursive: true });
    }
    report('concurrency two runtimes', {
      rounds: ROUNDS,
      calls: ROUNDS * SLOTS,
      applied: tally.applied,
      refused: tally.refused,
      lost: tally.lost,
      phantom: tally.phantom,
      unexpected: tally.unexpected.length,
    });
    expect(tally.unexpected).toEqual([]);
    expect(tally.lost).toBe(0);
    expect(tally.phantom).toBe(0);
    expect(tally.applied + tally.refused).toBe(ROUNDS * SLOTS);
  });
});
