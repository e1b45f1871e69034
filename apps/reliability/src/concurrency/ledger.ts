import { setTimeout as sleep } from 'node:timers/promises';
import type { Approval } from '@kimi-tools/core';

/** The text of slot `i` in a ledger, untouched or edited by `agent`. */
export function slotLine(i: number, agent?: string): string {
  const id = String(i).padStart(3, '0');
  return agent === undefined ? `slot ${id}: original` : `slot ${id}: edited by ${agent}`;
}

/** A ledger of `slots` lines, each followed by filler, so every edit touches one unique line of a ~200 KB file. */
export function ledgerText(slots: number, editedBy: ReadonlyMap<number, string> = new Map()): string {
  const filler = `${'filler text that no edit touches; '.repeat(4)}\n`.repeat(Math.ceil(1500 / slots));
  let text = '';
  for (let i = 0; i < slots; i++) text += `${slotLine(i, editedBy.get(i))}\n${filler}`;
  return text;
}

/** The slots a ledger shows as edited, and by whom; `undefined` when a slot line is missing or duplicated. */
export function editedSlots(text: string, slots: number): Map<number, string> | undefined {
  const edited = new Map<number, string>();
  for (let i = 0; i < slots; i++) {
    const prefix = `${slotLine(i).slice(0, 'slot 000:'.length)} `;
    const lines = text.split('\n').filter((line) => line.startsWith(prefix));
    if (lines.length !== 1) return undefined;
    const agent = /^slot \d{3}: edited by (.+)$/.exec(lines[0] ?? '')?.[1];
    if (agent !== undefined) edited.set(i, agent);
  }
  return edited;
}

/** Approves every request after a random pause of up to `maxMs`, so concurrent calls interleave differently. */
export function jitteryApproval(maxMs: number): Approval {
  return {
    async request() {
      await sleep(Math.random() * maxMs);
      return { kind: 'approve' };
    },
  };
}
