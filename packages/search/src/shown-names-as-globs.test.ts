import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { memoryFileSystem } from '@kimi-tools/core/fs';
import { backendHas, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { layOutTree, type TreeSpec } from './__fixtures__/backend-tree.js';
import { BYTE_NAMES, expectShownPathsFoundAgain, QUOTED_NAMES } from './__fixtures__/shown-names.js';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

// docs/glob.md#matching: a path Glob or Grep shows quoted (`"a\nb.txt"`, `"inv\udcff.txt"`), given back as Glob's
// pattern or Grep's glob, found nothing: the quotes and escapes were read as glob text, and ripgrep refused some
// (`"c\u001b[2K.txt"`: unclosed character class). A part in the quoted form is now that name, taken literally.
const tree: TreeSpec = {
  files: { ...QUOTED_NAMES.files, ...(backendHas('byte-names') ? BYTE_NAMES.files : {}) },
};

describe.runIf(process.platform !== 'win32')('a path shown quoted, given back as a glob', () => {
  it('finds that path and no other, with Glob and with Grep, on the local disk and in memory', async ({
    workspace,
  }) => {
    await layOutTree(workspace.fs, workspace.workDir, tree);
    const fs = memoryFileSystem();
    await layOutTree(fs, '/work', tree);
    const memory = createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
    const runtimes = [workspace.runtime(), memory];
    // ripgrep on the local disk, the portable search in memory (and for the names ripgrep cannot be given).
    const shown = await expectShownPathsFoundAgain(runtimes[0]!, new Grep(runtimes[0]!));
    expect(await expectShownPathsFoundAgain(memory, new Grep(memory))).toEqual(shown);
    expect(shown).toEqual(
      expect.arrayContaining(['"a\\nb.txt"', '"[id]\\t.tsx"', '"trail.txt "', '"!bang\\n"']),
    );
    if (backendHas('byte-names')) expect(shown).toContain('"inv\\udcff.txt"');
  });

  it('takes a quoted part joined to other parts, each quoted part as its name and the rest as glob syntax', async ({
    workspace,
  }) => {
    await layOutTree(workspace.fs, workspace.workDir, {
      files: {
        'd\tir/x.txt': 'zebra\n',
        'd\tir/y.md': 'zebra\n',
        'dir/"quoted".md': 'zebra\n',
        '[id].tsx': '',
        'i.tsx': '',
      },
    });
    const glob = new Glob(workspace.runtime());
    const grep = new Grep(workspace.runtime());
    expect((await glob.call({ pattern: '"d\\tir"/*.txt' })).output).toBe('"d\\tir/x.txt"');
    expect((await glob.call({ pattern: 'dir/"\\"quoted\\".md"' })).output).toBe('"dir/\\"quoted\\".md"');
    expect((await grep.call({ pattern: 'zebra', glob: '"d\\tir"/*.md' })).output).toBe('"d\\tir/y.md"');
    // Any name may be written so to be taken literally, a plain one too: `[id]` read as a glob is `i` or `d`.
    expect((await glob.call({ pattern: '[id].tsx' })).output).toBe('i.tsx');
    expect((await glob.call({ pattern: '"[id].tsx"' })).output).toBe('[id].tsx');
    // Grep's content lines quote a path holding their separator: that part, given back, is that path.
    await workspace.write('a:12:b', 'zebra\n');
    const line = String((await grep.call({ pattern: 'zebra', output_mode: 'content', glob: 'a:*' })).output);
    expect(line).toBe('"a:12:b":1:zebra');
    expect((await grep.call({ pattern: 'zebra', glob: line.slice(0, line.indexOf(':1:')) })).output).toBe(
      'a:12:b',
    );
    // The message shows the pattern as given, by the rule paths are shown by: read back, it is the pattern given.
    expect((await glob.call({ pattern: '"[id].tsx"' })).message).toBe(
      'Found 1 matches for pattern `"\\"[id].tsx\\""`.',
    );
  });

  it('takes a name starting with `#` as a name, with ripgrep and with the portable search', async ({
    workspace,
  }) => {
    // ripgrep reads a glob starting with `#` as a comment, which filters nothing: `#notes.md` searched every file.
    const files = { '#notes.md': 'zebra\n', 'other.md': 'zebra\n' };
    await layOutTree(workspace.fs, workspace.workDir, { files });
    const fs = memoryFileSystem();
    await layOutTree(fs, '/work', { files });
    const memory = createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
    for (const runtime of [workspace.runtime(), memory]) {
      const grep = new Grep(runtime);
      expect((await grep.call({ pattern: 'zebra', glob: '#notes.md' })).output).toBe('#notes.md');
      expect((await grep.call({ pattern: 'zebra', glob: '"#notes.md"' })).output).toBe('#notes.md');
      expect((await grep.call({ pattern: 'zebra', glob: '#*' })).output).toBe('#notes.md');
    }
  });

  it('is refused as the text it shows would be: absolute, or with a `..` segment', async ({ workspace }) => {
    const glob = new Glob(workspace.runtime());
    for (const pattern of ['"/etc/passwd"', '".."/x', 'a/".."']) {
      expect(await glob.call({ pattern }), pattern).toMatchObject({
        message: `Pattern \`${JSON.stringify(pattern)}\` must be relative to the search directory and may not contain \`..\`.`,
        brief: 'Invalid pattern',
      });
    }
  });
});
