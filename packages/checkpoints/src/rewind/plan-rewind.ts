import { decodeText, encodeText } from '@kimi-tools/core/toolkit';
import { sameContent, type EntryLookup, type ManifestEntry } from '../scan/manifest.js';
import type { AgentWrite } from './agent-writes.js';
import { mergeThreeWay } from './merge-three-way.js';
import type { LeftAlone, Resolution } from './rewind-types.js';
import { directoriesAbove } from '../scan/workspace-paths.js';

/** What the plan needs to know beyond the manifests. */
export interface PlanContext {
  checkpointId: string;
  /** The entries of the checkpoint rewound to, of the last checkpoint, and of now. */
  target: EntryLookup;
  last: EntryLookup;
  now: EntryLookup;
  /** The selected paths whose entries differ between the checkpoint and now, sorted. */
  differing: readonly string[];
  resolve: (path: string) => Resolution | undefined;
  /** Whether a path must be left as it is (`RewindOptions.protect`), for `differing` and what stands above them. */
  isProtected: (path: string) => boolean;
  agentWrite: (path: string) => AgentWrite | undefined;
  /** The bytes of an entry of a checkpoint (from the store) or of now (from the workspace). */
  bytesOf: (path: string, entry: ManifestEntry, from: 'store' | 'workspace') => Promise<Uint8Array>;
}

/** A file a merge rewrites. */
export interface PlannedMerge {
  path: string;
  bytes: Uint8Array;
  mode: number;
  conflicts: number;
}

/** What a rewind will change. */
export interface RewindPlan {
  /** Paths set back to the checkpoint's entry (a file, a link, or nothing: removed). */
  restore: string[];
  merge: PlannedMerge[];
  leftAlone: LeftAlone[];
  /** Files the user changed with no resolution, or one that cannot be done: the rewind must stop. */
  blocked: LeftAlone[];
  /** Directories to make first (the checkpoint had them), shallowest first. */
  makeDirectories: string[];
  /** Directories the checkpoint did not have, removed after when empty, deepest first. */
  removeDirectories: string[];
}

/**
 * Whether the version of `path` there now is the user's rather than the agent's: it differs from what the agent's
 * tools last wrote to it (or is there again after they removed it), or, when they never touched it, it changed since
 * the last checkpoint (between checkpoints, what changed is the agent's turn: its tools and its commands).
 */
function isUsers(context: PlanContext, path: string): boolean {
  const written = context.agentWrite(path);
  const now = context.now(path);
  if (written?.hash === null) return now !== undefined;
  if (written !== undefined) return now?.type !== 'file' || now.hash !== written.hash;
  return !sameContent(context.last(path), now);
}

/** The shallowest directory of `path` that is there now as something else (a link, a file), if any. */
export function nonDirectoryAbove(now: EntryLookup, path: string): string | undefined {
  return directoriesAbove(path).find((directory) => {
    const entry = now(directory);
    return entry !== undefined && entry.type !== 'dir';
  });
}

/** Plans a rewind of the selected paths to the checkpoint, and decides what to do with the user's files. */
export async function planRewind(context: PlanContext): Promise<RewindPlan> {
  const plan: RewindPlan = {
    restore: [],
    merge: [],
    leftAlone: [],
    blocked: [],
    makeDirectories: [],
    removeDirectories: [],
  };
  const { target, now } = context;
  const leftAlone = new Set<string>();
  for (const path of context.differing) {
    const was = target(path);
    const is = now(path);
    // Before anything else is decided of it, so no other reason names it. A directory made or removed is no file.
    if (context.isProtected(path)) {
      const directories =
        (was === undefined || was.type === 'dir') && (is === undefined || is.type === 'dir');
      if (!directories && !leftAlone.has(path)) plan.leftAlone.push({ path, reason: 'protected' });
      leftAlone.add(path);
      continue;
    }
    // Under a link or a file that stands where the checkpoint had a directory, a path can only be written through
    // that entry: into wherever the link leads, maybe outside the workspace. What is under it is left alone with it.
    const through = nonDirectoryAbove(now, path);
    if (through !== undefined) {
      const reason = context.isProtected(through) ? 'protected' : 'type-changed';
      if (!leftAlone.has(through)) plan.leftAlone.push({ path: through, reason });
      leftAlone.add(through);
      continue;
    }
    if (was?.type === 'dir' || is?.type === 'dir') {
      if (was?.type === 'dir' && is === undefined) plan.makeDirectories.push(path);
      else if (is?.type === 'dir' && was === undefined) plan.removeDirectories.push(path);
      else if (was?.type !== is?.type && !leftAlone.has(path)) {
        plan.leftAlone.push({ path, reason: 'type-changed' });
        leftAlone.add(path);
      }
      continue;
    }
    if (was?.type === 'large') {
      plan.leftAlone.push({ path, reason: 'not-restorable' });
      continue;
    }
    // Removed or overwritten, a file whose content no checkpoint stored would be lost: the checkpoint of the state
    // before the rewind could not bring it back.
    if (is?.type === 'large') {
      plan.leftAlone.push({ path, reason: 'not-stored' });
      continue;
    }
    if (!isUsers(context, path)) {
      plan.restore.push(path);
      continue;
    }
    const resolution = context.resolve(path);
    if (resolution === 'take') plan.restore.push(path);
    else if (resolution === 'keep') plan.leftAlone.push({ path, reason: 'user-changed' });
    else if (resolution === 'merge') {
      const merged = await mergeOf(context, path, was, is);
      if (merged) plan.merge.push(merged);
      else plan.blocked.push({ path, reason: 'cannot-merge' });
    } else plan.blocked.push({ path, reason: 'user-changed' });
  }
  // A restored file needs the directories the checkpoint had it in.
  const making = new Set(plan.makeDirectories);
  for (const path of [...plan.restore, ...plan.merge.map((merged) => merged.path)]) {
    for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
      const directory = path.slice(0, cut);
      if (!making.has(directory) && now(directory) === undefined) {
        making.add(directory);
        plan.makeDirectories.push(directory);
      }
    }
  }
  plan.makeDirectories.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  plan.removeDirectories.sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  return plan;
}

/**
 * The merge of the user's version into the checkpoint's, taking back only what the agent changed: a three-way merge
 * whose base is the agent's last version (what its tools last wrote, else the last checkpoint's), one side the
 * checkpoint's and the other the user's. Written in the user's encoding and line endings, with the user's mode.
 * `undefined` when a version is missing or not text.
 */
async function mergeOf(
  context: PlanContext,
  path: string,
  was: ManifestEntry | undefined,
  is: ManifestEntry | undefined,
): Promise<PlannedMerge | undefined> {
  if (was?.type !== 'file' || is?.type !== 'file') return undefined;
  const written = context.agentWrite(path);
  const last = context.last(path);
  let agentBytes: Uint8Array | undefined;
  if (written?.bytes) agentBytes = written.bytes;
  else if (written === undefined && last?.type === 'file')
    agentBytes = await context.bytesOf(path, last, 'store');
  if (agentBytes === undefined) return undefined;
  const base = decodeText(agentBytes);
  const ours = decodeText(await context.bytesOf(path, was, 'store'));
  const theirs = decodeText(await context.bytesOf(path, is, 'workspace'));
  if (!base.ok || !ours.ok || !theirs.ok) return undefined;
  const merged = mergeThreeWay(
    base.decoded.text,
    ours.decoded.text,
    theirs.decoded.text,
    context.checkpointId,
  );
  const format = theirs.decoded.format;
  const raw = format.lineEnding === '\n' ? merged.text : merged.text.replaceAll('\n', format.lineEnding);
  return { path, bytes: encodeText(raw, format), mode: is.mode, conflicts: merged.conflicts };
}
