import { backendHas, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ApplyPatch } from './index.js';

const it = test.extend('tool', ({ runtime }) => new ApplyPatch(runtime));

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** Every file under the work dir with its text, lock and temp files included. */
async function tree(workspace: TempWorkspace, dir = ''): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await workspace.fs.readdir(workspace.at(dir))) {
    const name = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await tree(workspace, name));
    else files[name] = await workspace.read(name);
  }
  return files;
}

// docs/paths.md#names-that-are-not-utf-8: `inv\xff.txt` is given and shown as `"inv\udcff.txt"`, and is never the
// file `inv\uFFFD.txt` beside it.
describe('ApplyPatch and names that are not UTF-8', () => {
  it.runIf(backendHas('byte-names'))(
    'adds, updates, deletes and moves such files by their quoted forms, the U+FFFD twin untouched',
    async ({ workspace, runtime, tool, approval }) => {
      await workspace.write('inv\udcff.txt', 'ff\n', { readBy: runtime });
      await workspace.write('inv\udcfe.txt', 'fe\n', { readBy: runtime });
      await workspace.write('old\udcfd.txt', 'old\n', { readBy: runtime });
      await workspace.write('inv\ufffd.txt', 'replacement\n', { readBy: runtime });
      const result = await tool.call({
        patch: patch(
          '*** Update File: "inv\\udcff.txt"',
          '-ff',
          '+FF',
          '*** Delete File: "inv\\udcfe.txt"',
          '*** Add File: "dir\\udcfc/new\\udcfb.txt"',
          '+new',
          '*** Update File: "old\\udcfd.txt"',
          '*** Move to: "moved\\udcfa.txt"',
          '-old',
          '+moved',
        ),
      });
      expect(result.message).toBe(
        'Success. Updated the following files:\n' +
          'M "inv\\udcff.txt"\nD "inv\\udcfe.txt"\nA "dir\\udcfc/new\\udcfb.txt"\nR "old\\udcfd.txt" -> "moved\\udcfa.txt"',
      );
      expect(approval.requests.map((request) => request.description)).toEqual([
        'Apply patch to 4 files: "inv\\udcff.txt" (edit), "inv\\udcfe.txt" (delete), "dir\\udcfc/new\\udcfb.txt" (add), "old\\udcfd.txt" -> "moved\\udcfa.txt" (move)',
      ]);
      expect(await tree(workspace)).toEqual({
        'dir\udcfc/new\udcfb.txt': 'new\n',
        'inv\udcff.txt': 'FF\n',
        'inv\ufffd.txt': 'replacement\n',
        'moved\udcfa.txt': 'moved\n',
      });
    },
  );

  // As `git diff` prints a change to `inv\xff.txt`: its byte as an octal escape between quotes.
  const gitDiff = [
    'diff --git "a/inv\\377.txt" "b/inv\\377.txt"',
    'index fcd15ac..f00fb8b 100644',
    '--- "a/inv\\377.txt"',
    '+++ "b/inv\\377.txt"',
    '@@ -1 +1 @@',
    '-ff',
    '+FF',
    '',
  ].join('\n');

  it.runIf(backendHas('byte-names'))(
    "applies git's diff of such a file, its name's bytes quoted in octal, to that file and never the U+FFFD one",
    async ({ workspace, runtime, tool }) => {
      await workspace.write('inv\udcff.txt', 'ff\n', { readBy: runtime });
      await workspace.write('inv\ufffd.txt', 'ff\n', { readBy: runtime });
      const result = await tool.call({ patch: gitDiff });
      expect(result.message).toBe('Success. Updated the following files:\nM "inv\\udcff.txt"');
      expect(await tree(workspace)).toEqual({ 'inv\udcff.txt': 'FF\n', 'inv\ufffd.txt': 'ff\n' });
    },
  );

  it.runIf(!backendHas('byte-names'))(
    "refuses git's diff of such a file where the backend cannot carry its name, touching nothing",
    async ({ workspace, runtime, tool }) => {
      await workspace.write('inv\ufffd.txt', 'ff\n', { readBy: runtime });
      const result = await tool.call({ patch: gitDiff });
      expect(result).toMatchObject({ isError: true });
      expect(result.message).toContain('"inv\\udcff.txt"');
      expect(await tree(workspace)).toEqual({ 'inv\ufffd.txt': 'ff\n' });
    },
  );
});
