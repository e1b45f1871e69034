import { hashBytes } from '@kimi-tools/core/toolkit';
import { fileChanges } from '../scan/changes.js';
import { emptyEntries } from '../scan/manifest.js';
import { differences, StampIndex } from '../scan/stamp-index.js';
import type { CheckpointRecord, CheckpointStore, RecordSummary } from './checkpoint-store.js';
import type { PackWriter } from './pack-file.js';

/** What {@link recordCheckpoint} records. */
export interface CheckpointToRecord {
  label: string | undefined;
  /** The newest checkpoint (the caller holds the store's lock, so it stays the newest), and its manifest. */
  predecessor: { summary: RecordSummary; manifest: StampIndex } | undefined;
  /** The workspace's state: the index of its scan (the manifest is made from it). */
  index: StampIndex;
  /** The paths whose entries differ from the predecessor's; `undefined`: not known, every path is compared. */
  changed: readonly string[] | undefined;
  /** Holds the contents this state refers to that the store did not have. */
  writer: PackWriter;
  /** Whether the index moved even if no entry changed (a stamp, or the time of its scan). */
  indexMoved: boolean;
  /** A stored manifest known to hold exactly `index`'s entries (a rewind that took everything back): not made again. */
  knownManifest?: string;
}

/**
 * Records a checkpoint of `index`'s state: its manifest (the predecessor's when no entry changed), the pack of the
 * contents it added (flushed: one flush per checkpoint that adds any), its record, and then the index, which from
 * now on matches the newest checkpoint. The caller holds the store's lock.
 */
export async function recordCheckpoint(
  store: CheckpointStore,
  state: CheckpointToRecord,
): Promise<CheckpointRecord> {
  const { predecessor, index, writer } = state;
  const changed =
    state.changed ?? differences(predecessor?.manifest ?? emptyIndex(), index).map((item) => item.path);
  let fields: Omit<CheckpointRecord, 'id' | 'time' | 'label'>;
  if (predecessor !== undefined && changed.length === 0) {
    const { manifest, contentBytes, storedBytes } = predecessor.summary;
    fields = { manifest, contentBytes, storedBytes, files: [], added: [] };
  } else {
    let manifest: string;
    let manifestBytes: number;
    const known =
      state.knownManifest === undefined ? undefined : await store.objects.sizeOf(state.knownManifest);
    if (known !== undefined) {
      manifest = state.knownManifest!;
      manifestBytes = known;
    } else {
      const bytes = index.manifest().encode();
      manifest = hashBytes(bytes);
      manifestBytes = bytes.length;
      // The same entries as an older checkpoint (files changed and changed back): its manifest is there already.
      if (manifest !== predecessor?.summary.manifest && (await store.objects.sizeOf(manifest)) === undefined)
        await writer.put(manifest, bytes);
    }
    const before = emptyEntries();
    const after = emptyEntries();
    for (const path of changed) {
      const old = predecessor?.manifest.entryAt(path);
      const now = index.entryAt(path);
      if (old !== undefined) before[path] = old;
      if (now !== undefined) after[path] = now;
    }
    // What this checkpoint refers to that its predecessor did not: the new contents of the paths that changed, but
    // those another path that changed had before (a rename). One the predecessor had elsewhere is counted too:
    // that keeps a content pruning could have let go, never the other way round.
    const added = new Map<string, number>([[manifest, manifestBytes]]);
    for (const entry of Object.values(after)) if (entry.type === 'file') added.set(entry.hash, entry.size);
    for (const entry of Object.values(before)) if (entry.type === 'file') added.delete(entry.hash);
    const addedBytes = [...added.values()].reduce((sum, size) => sum + size, 0);
    fields = {
      manifest,
      contentBytes: (predecessor?.summary.contentBytes ?? 0) + addedBytes,
      storedBytes: (predecessor?.summary.storedBytes ?? 0) + addedBytes,
      files: fileChanges(before, after),
      added: [...added],
    };
  }
  await writer.finish();
  const record = await store.add({ label: state.label, ...fields });
  if (state.indexMoved || fields.manifest !== index.header.manifest)
    await store.writeIndex(index.withHeader({ ...index.header, manifest: fields.manifest }));
  return record;
}

/** An index of nothing, for a first checkpoint's comparisons. */
function emptyIndex(): StampIndex {
  return StampIndex.fromRows({ root: '', backend: '', manifest: '', scannedAtMs: 0 }, []);
}
