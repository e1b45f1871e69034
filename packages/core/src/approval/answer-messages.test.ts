import { describe, expect, it } from 'vitest';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { editedContentNote, partialApprovalNote } from './answer-messages.js';

/** A change of one line holding ESC and BEL, in a file whose name holds ESC too. */
const BLOCK: DiffDisplayBlock = {
  type: 'diff',
  path: '/w/a\u001b.txt',
  oldText: 'keep\tit\nclear "\u001b[2J"',
  newText: 'keep\tit\nbell "\u0007"',
  oldStart: 1,
  newStart: 1,
  isSummary: false,
};

// The diffs of a shaped answer reached the model with the file's raw ESC and BEL: each line shows them as ReadFile
// does (docs/approval.md#per-hunk-answers), and the path as paths are shown.
const SHOWN_DIFF = [
  '--- "/w/a\\u001b.txt"',
  '+++ "/w/a\\u001b.txt"',
  '@@ -1,2 +1,2 @@',
  ' keep\tit',
  '-clear "\u241b[2J"',
  '+bell "\u2407"',
];

describe('the notes of shaped answers', () => {
  it('shows the control characters of the rejected hunks as their pictures', () => {
    expect(partialApprovalNote(1, 2, [BLOCK], undefined).split('\n').slice(1)).toEqual(SHOWN_DIFF);
  });

  it("shows the control characters of the diff to the user's version as their pictures", () => {
    expect(
      editedContentNote([{ kind: 'diff', blocks: [BLOCK] }], undefined)
        .split('\n')
        .slice(2),
    ).toEqual(SHOWN_DIFF);
  });
});
