import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';

const envelope = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('parsePatch: the envelope', () => {
  it('reads add, delete, update with a move, anchors and the end-of-file marker', () => {
    const parsed = parsePatch(
      envelope(
        '*** Add File: new.txt',
        '+one',
        '+two',
        '*** Delete File: old.txt',
        '*** Update File: a.py',
        '*** Move to: b.py',
        '@@ class A',
        '@@ def f():',
        '     x = 1',
        '-    y = 2',
        '+    y = 3',
        '@@',
        ' tail',
        '+end',
        '*** End of File',
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      sections: [
        { kind: 'add', path: 'new.txt', patchLine: 2, lines: ['one', 'two'] },
        { kind: 'delete', path: 'old.txt', patchLine: 5 },
        {
          kind: 'update',
          path: 'a.py',
          patchLine: 6,
          moveTo: 'b.py',
          chunks: [
            {
              patchLine: 8,
              anchors: ['class A', 'def f():'],
              oldLines: ['    x = 1', '    y = 2'],
              newLines: ['    x = 1', '    y = 3'],
              newFromOld: [0, -1],
              atEndOfFile: false,
            },
            {
              patchLine: 13,
              anchors: [],
              oldLines: ['tail'],
              newLines: ['tail', 'end'],
              newFromOld: [0, -1],
              atEndOfFile: true,
            },
          ],
        },
      ],
    });
  });

  it('unwraps a heredoc, ignores whitespace around markers, reads an empty line as empty context', () => {
    const text = [
      "apply_patch <<'EOF'",
      '  *** Begin Patch  ',
      '*** Update File: a.txt ',
      ' first',
      '',
      '-second',
      '+2nd',
      ' *** End Patch',
      'EOF',
    ].join('\n');
    const parsed = parsePatch(text);
    expect(parsed.ok && parsed.sections[0]).toEqual({
      kind: 'update',
      path: 'a.txt',
      patchLine: 3,
      chunks: [
        {
          patchLine: 4,
          anchors: [],
          oldLines: ['first', '', 'second'],
          newLines: ['first', '', '2nd'],
          newFromOld: [0, 1, -1],
          atEndOfFile: false,
        },
      ],
    });
  });

  it('refuses text that is neither format, a missing end, a bad header and an empty chunk, with their lines', () => {
    expect(parsePatch('hello')).toEqual({ ok: false, reason: "the first line must be '*** Begin Patch'." });
    expect(parsePatch('*** Begin Patch\n*** Add File: a\n+x')).toEqual({
      ok: false,
      reason: "the last line must be '*** End Patch'.",
    });
    expect(parsePatch(envelope('*** Frobnicate File: a'))).toEqual({
      ok: false,
      reason:
        "line 2: '*** Frobnicate File: a' is not a valid section header. Valid headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'.",
    });
    expect(parsePatch(envelope('*** Update File: a.ts', '@@', '*** Delete File: b.ts'))).toEqual({
      ok: false,
      reason: "line 3: the chunk for 'a.ts' is empty.",
    });
    expect(parsePatch(envelope('*** Update File: a.ts'))).toEqual({
      ok: false,
      reason: "line 2: the chunk for 'a.ts' is empty.",
    });
  });

  it('counts lines in the text the model sent, heredoc wrapper included', () => {
    expect(parsePatch("<<'EOF'\n*** Begin Patch\n*** Nonsense\n*** End Patch\nEOF")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^line 3: /) as unknown,
    });
  });
});

describe('parsePatch: unified diffs', () => {
  it('reads git diffs of several files: prefixes, new and deleted files, renames, no-newline marks', () => {
    const text = [
      'diff --git a/src/a.ts b/src/a.ts',
      'index 83db48f..bf269f4 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -10,3 +10,3 @@ function main() {',
      ' one',
      '-two',
      '+zwei',
      ' three',
      'diff --git a/new.txt b/new.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      '\\ No newline at end of file',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/old.md b/new.md',
      'similarity index 100%',
      'rename from old.md',
      'rename to new.md',
    ].join('\n');
    expect(parsePatch(text)).toEqual({
      ok: true,
      sections: [
        {
          kind: 'update',
          path: 'src/a.ts',
          patchLine: 1,
          chunks: [
            {
              patchLine: 5,
              anchors: [],
              oldLines: ['one', 'two', 'three'],
              newLines: ['one', 'zwei', 'three'],
              newFromOld: [0, -1, 2],
              atEndOfFile: false,
              hintLine: 10,
            },
          ],
        },
        { kind: 'add', path: 'new.txt', patchLine: 10, lines: ['hello', 'world'], endsWithoutNewline: true },
        { kind: 'delete', path: 'gone.txt', patchLine: 18 },
        { kind: 'update', path: 'old.md', patchLine: 24, moveTo: 'new.md', chunks: [] },
      ],
    });
  });

  it('reads diff -u output without prefixes and with timestamps', () => {
    const text =
      '--- notes.txt\t2026-11-28 10:00:00\n+++ notes.txt\t2026-11-28 10:01:00\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n';
    const parsed = parsePatch(text);
    expect(parsed.ok && parsed.sections.map((section) => section.path)).toEqual(['notes.txt']);
  });

  it('reads header names as written, as git quotes them and as they are shown, ending at a tab', () => {
    const pathsOf = (oldHeader: string, newHeader: string) => {
      const parsed = parsePatch(
        [`--- ${oldHeader}`, `+++ ${newHeader}`, '@@ -1 +1 @@', '-a', '+b'].join('\n'),
      );
      return parsed.ok ? parsed.sections.map((section) => section.path) : parsed.reason;
    };
    // A name ends at a tab (git's after a name holding a space, diff -u's before its timestamp): its spaces are its
    // own. Without one, the blanks a hand-written header trails are not.
    expect(pathsOf('a/x.txt \t', 'b/x.txt \t')).toEqual(['x.txt ']);
    expect(pathsOf('x.txt \t2024-01-01 10:00:00', 'x.txt \t2024-01-02 10:00:00')).toEqual(['x.txt ']);
    expect(pathsOf('a/x.txt  ', 'b/x.txt  ')).toEqual(['x.txt']);
    // git's quotes, `a/` inside: octal bytes of UTF-8 and C escapes; the name is handed on in its shown form.
    expect(pathsOf('"a/caf\\303\\251.txt"', '"b/caf\\303\\251.txt"')).toEqual(['café.txt']);
    expect(pathsOf('"a/t\\tb\\a.txt"', '"b/t\\tb\\a.txt"')).toEqual(['"t\\tb\\u0007.txt"']);
    // The shown form a model copies, `a/` inside the quotes or before them.
    expect(pathsOf('"a/t\\u001bb.txt"', '"b/t\\u001bb.txt"')).toEqual(['"t\\u001bb.txt"']);
    expect(pathsOf('a/"t\\u001bb.txt"', 'b/"t\\u001bb.txt"')).toEqual(['"t\\u001bb.txt"']);
    // Whole, however long: a name cut in the middle would read back as another.
    const long = `d/${'k'.repeat(5000)}\t.txt`;
    expect(pathsOf(JSON.stringify(`a/${long}`), JSON.stringify(`b/${long}`))).toEqual([JSON.stringify(long)]);
    // Bytes that are not UTF-8 are the name they stand for (docs/paths.md#names-that-are-not-utf-8), handed on in its
    // shown form: `\377` is byte 0xFF, the escape U+DCFF, never U+FFFD.
    expect(pathsOf('"a/\\377.txt"', '"b/\\377.txt"')).toEqual(['"\\udcff.txt"']);
    expect(pathsOf('"a/caf\\303.txt"', '"b/caf\\303.txt"')).toEqual(['"caf\\udcc3.txt"']);
  });

  it('refuses binary patches and mode-only changes with their reasons', () => {
    expect(
      parsePatch('diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n'),
    ).toEqual({
      ok: false,
      reason: "line 3: 'x.png' is a binary patch; ApplyPatch changes text files only.",
    });
    expect(parsePatch('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n')).toEqual({
      ok: false,
      reason:
        "line 1: 'run.sh' changes only the file mode; ApplyPatch changes the content of files, not their modes.",
    });
  });
});
