import type { DiffDisplayBlock, ToolRuntime } from '@kimi-tools/core';
import { buildDiffBlocks, decodeText } from '@kimi-tools/core/toolkit';
import type { FileChange } from './scan/changes.js';
import type { ManifestEntry } from './scan/manifest.js';

/** One file's change between two checkpoints (or a checkpoint and now), with its unified diff. */
export interface FileDiff extends FileChange {
  /** The write tools' display blocks of the change (old text to new text); empty when `note` says why. */
  blocks: DiffDisplayBlock[];
  /** Why there is no text diff: a binary file, a symbolic link (its target then), or a file not stored. */
  note?: 'binary' | 'symlink' | 'not-stored';
}

/** The text of one side of a change; `null`: no text to show, and why. */
type SideText = { text: string } | { note: NonNullable<FileDiff['note']> };

/** Reads the bytes of an entry (from the store or the workspace). */
export type EntryBytes = (path: string, entry: ManifestEntry) => Promise<Uint8Array>;

async function sideText(
  path: string,
  entry: ManifestEntry | undefined,
  bytesOf: EntryBytes,
): Promise<SideText> {
  if (entry === undefined || entry.type === 'dir') return { text: '' };
  if (entry.type === 'link') return { note: 'symlink' };
  if (entry.type === 'large') return { note: 'not-stored' };
  const decoded = decodeText(await bytesOf(path, entry));
  return decoded.ok ? { text: decoded.decoded.text } : { note: 'binary' };
}

/**
 * The diff of one change, shown under the file's absolute path as the write tools show theirs: `old` and `new` are
 * the entries before and after (`from` is the path before a rename).
 */
export async function fileDiff(
  runtime: ToolRuntime,
  root: string,
  change: FileChange,
  old: { entry: ManifestEntry | undefined; bytesOf: EntryBytes },
  now: { entry: ManifestEntry | undefined; bytesOf: EntryBytes },
): Promise<FileDiff> {
  const before = await sideText(change.from ?? change.path, old.entry, old.bytesOf);
  const after = await sideText(change.path, now.entry, now.bytesOf);
  if ('note' in before || 'note' in after) {
    const note = 'note' in before ? before.note : (after as { note: NonNullable<FileDiff['note']> }).note;
    return { ...change, blocks: [], note };
  }
  const blocks = buildDiffBlocks(`${root}/${change.path}`, before.text, after.text, {
    budgetMs: runtime.diffBudgetMs,
  });
  return { ...change, blocks };
}
