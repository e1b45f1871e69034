import { backendHas, test, type TempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ApplyPatch } from './index.js';

// docs/apply-patch.md#what-the-model-reads: the output of a successful patch is at most 8 KiB, every line counted.

const it = test.extend('tool', ({ runtime }) => new ApplyPatch(runtime));

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
const OUTPUT_MAX_BYTES = 8192;

/** A file the patch changes: its lines before (none for an added file) and the lines its chunk puts at `at`. */
interface FileChange {
  name: string;
  before: string[];
  at: number;
  removed: number;
  added: string[];
}

function sectionOf(change: FileChange): string[] {
  if (change.before.length === 0)
    return [`*** Add File: ${change.name}`, ...change.added.map((line) => `+${line}`)];
  const removed = change.before.slice(change.at, change.at + change.removed);
  const context = change.before.slice(Math.max(0, change.at - 1), change.at);
  return [
    `*** Update File: ${change.name}`,
    '@@',
    ...context.map((line) => ` ${line}`),
    ...removed.map((line) => `-${line}`),
    ...change.added.map((line) => `+${line}`),
  ];
}

/** A shown line is the file's line as ReadFile shows it: whole, or cut at 2000 code points ending with `...`. */
function showsLine(shown: string, line: string): boolean {
  return shown === line || (shown.endsWith('...') && line.startsWith(shown.slice(0, -3)));
}

/**
 * Checks the output line by line against the files on disk: in patch order, each file's `{name}:` line, then real
 * lines of it numbered as ReadFile numbers them (`...` between places), then maybe its cut note; files parted by a
 * blank line; the files left out counted on a last line. Each block within its equal share.
 */
async function checkOutput(workspace: TempWorkspace, output: string, changes: readonly FileChange[]) {
  expect(Buffer.byteLength(output)).toBeLessThanOrEqual(OUTPUT_MAX_BYTES);
  expect(output.endsWith('\n')).toBe(true);
  const blocks = output.slice(0, -1).split('\n\n');
  const counted = /^\((\d+) more files? not shown\)$/.exec(blocks[blocks.length - 1]!);
  const shownBlocks = counted ? blocks.slice(0, -1) : blocks;
  expect(shownBlocks.length + Number(counted?.[1] ?? 0)).toBe(changes.length);
  const tail = counted ? Buffer.byteLength(`${blocks[blocks.length - 1]}\n`) : 0;
  const share = Math.floor((OUTPUT_MAX_BYTES - tail - (blocks.length - 1)) / shownBlocks.length);
  for (const [index, block] of shownBlocks.entries()) {
    expect(Buffer.byteLength(`${block}\n`)).toBeLessThanOrEqual(share);
    const [header, ...rest] = block.split('\n');
    expect(header).toBe(`${changes[index]!.name}:`);
    const lines = (await workspace.read(changes[index]!.name)).split('\n');
    let previous = 0;
    for (const [at, line] of rest.entries()) {
      if (at === rest.length - 1 && /^\(lines \d+-\d+ not shown\)$/.test(line)) continue;
      if (line === '...' && at > 0) continue;
      const numbered = /^ *(\d+)\t([^]*)$/.exec(line);
      expect(numbered, line).not.toBeNull();
      const number = Number(numbered![1]);
      expect(number).toBeGreaterThan(previous);
      expect(number).toBeLessThan(lines.length);
      expect(showsLine(numbered![2]!, lines[number - 1]!), `line ${number} of ${header}`).toBe(true);
      previous = number;
    }
  }
}

describe('ApplyPatch: the output', () => {
  it('keeps two large changes within 8 KiB, their names and notes counted, and parts the files by a blank line', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const old = Array.from({ length: 400 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
    const changes = ['a.txt', 'b.txt'].map((name) => ({
      name,
      before: old,
      at: 0,
      removed: old.length,
      added: old.map((line) => `${line}y`),
    }));
    for (const change of changes)
      await workspace.write(change.name, `${old.join('\n')}\n`, { readBy: runtime });
    const result = await tool.call({ patch: patch(...changes.flatMap(sectionOf)) });
    expect(result.isError).toBe(false);
    const output = result.output as string;
    expect(output).toContain('(lines 72-400 not shown)\n\nb.txt:\n');
    expect(output.endsWith('(lines 72-400 not shown)\n')).toBe(true);
    await checkOutput(workspace, output, changes);
  });

  it('counts on a last line the files whose share cannot hold their name and note', async ({
    workspace,
    tool,
  }) => {
    const changes = Array.from({ length: 200 }, (_, index) => ({
      name: `d/file-number-${index}.txt`,
      before: [],
      at: 0,
      removed: 0,
      added: ['é'.repeat(30)],
    }));
    const result = await tool.call({ patch: patch(...changes.flatMap(sectionOf)) });
    expect(result.isError).toBe(false);
    const output = result.output as string;
    expect(output.startsWith('d/file-number-0.txt:\n(lines 1-1 not shown)\n\nd/file-number-1.txt:\n')).toBe(
      true,
    );
    expect(
      output.endsWith('d/file-number-176.txt:\n(lines 1-1 not shown)\n\n(23 more files not shown)\n'),
    ).toBe(true);
    expect(Buffer.byteLength(output)).toBe(8058);
    await checkOutput(workspace, output, changes);
  });

  it.runIf(backendHas('slow'))(
    'stays within 8 KiB and shows only real lines, for any number of files, long lines and multibyte text (property)',
    async ({ workspace, runtime }) => {
      // Long lines (cut at 2000 code points when shown) and multibyte text, among shorter lines.
      const line = fc.oneof(
        { arbitrary: fc.constantFrom('', 'x', 'plain text', 'é'.repeat(50)), weight: 12 },
        { arbitrary: fc.constantFrom('中文'.repeat(700), '😀'.repeat(2100), 'y'.repeat(2500)), weight: 1 },
      );
      const change = fc.record({
        name: fc.constantFrom('a.txt', 'ü/中文.md', `long-${'n'.repeat(120)}.txt`),
        before: fc.array(line, { maxLength: 40, size: 'max' }),
        at: fc.nat(),
        removed: fc.nat({ max: 30 }),
        added: fc.array(line, { minLength: 1, maxLength: 40, size: 'max' }),
      });
      // Two hundred files of long lines take more than the 1 MiB a patch may have by default.
      const tool = new ApplyPatch(runtime, { maxBytes: 64 * 1024 * 1024 });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 200, size: 'max' }), async (drafts) => {
          run++;
          // Each file a name of its own, and lines of its own so its chunk matches one place.
          const changes = drafts.map((draft, index) => {
            const before = draft.before.map((text, at) => `${index}.${at} ${text}`);
            const at = before.length === 0 ? 0 : draft.at % before.length;
            const removed = Math.min(draft.removed, before.length - at);
            return {
              name: `r${run}/${index}-${draft.name}`,
              before,
              at,
              removed: before.length === 0 ? 0 : Math.max(1, removed),
              added: draft.added.map((text, added) => `${index}+${added} ${text}`),
            };
          });
          for (const file of changes.filter((file) => file.before.length > 0)) {
            await workspace.write(file.name, `${file.before.join('\n')}\n`, { readBy: runtime });
          }
          const result = await tool.call({ patch: patch(...changes.flatMap(sectionOf)) });
          expect(result.isError, result.message).toBe(false);
          await checkOutput(workspace, result.output as string, changes);
        }),
        { numRuns: 15 },
      );
    },
  );
});
