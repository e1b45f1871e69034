import { describe, expect, it } from 'vitest';
import {
  EDIT_LOG_MAX_EDITS_PER_FILE,
  EDIT_LOG_MAX_FILES,
  EDIT_LOG_MAX_EDIT_CHARS,
  EditLog,
} from './edit-log.js';

const edit = (n: number) => ({ old: `a${n}`, new: `b${n}`, written: `b${n}`, line: n });

describe('EditLog', () => {
  it('keeps edits per file in order, and copies what it hands out', () => {
    const log = new EditLog();
    log.record('/f', [edit(1), edit(2)]);
    const edits = log.edits('/f');
    expect(edits.map((entry) => entry.old)).toEqual(['a1', 'a2']);
    edits[0]!.old = 'changed';
    expect(log.edits('/f')[0]?.old).toBe('a1');
    expect(log.edits('/other')).toEqual([]);
  });

  it('stays within its bounds: edits per file, files, and the size of one edit', () => {
    const log = new EditLog();
    log.record(
      '/f',
      Array.from({ length: EDIT_LOG_MAX_EDITS_PER_FILE + 5 }, (_, index) => edit(index)),
    );
    expect(log.edits('/f')).toHaveLength(EDIT_LOG_MAX_EDITS_PER_FILE);
    expect(log.edits('/f')[0]?.old).toBe('a5');
    for (let index = 0; index < EDIT_LOG_MAX_FILES + 1; index++) log.record(`/file${index}`, [edit(index)]);
    expect(log.edits('/f')).toEqual([]);
    expect(log.edits(`/file${EDIT_LOG_MAX_FILES}`)).toHaveLength(1);
    log.record('/big', [{ old: 'x'.repeat(EDIT_LOG_MAX_EDIT_CHARS), new: 'y', written: 'y', line: 1 }]);
    expect(log.edits('/big')).toEqual([]);
  });
});
