import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolReturnValue } from '@kimi-tools/core';
import { backendHas, firstTypeScriptBlock, test } from '@kimi-tools/test-kit';
import { describe, expect, vi } from 'vitest';

// The root README promises that its quick start keeps an agent inside the workspace: its snippet runs here as
// written, in a work dir of its own, and calls made afterwards on the runtime it created try to leave.

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** Calls appended to the snippet, on its `runtime` and `readFile`, each trying to leave the work dir. */
function probesOf(outsideFile: string): string {
  return `
import { WriteFile as ProbeWriteFile } from '@kimi-tools/write';
export const probes = {
  passwd: await readFile.call({ path: '/etc/passwd' }),
  throughLink: await readFile.call({ path: 'etc/passwd' }),
  relative: await readFile.call({ path: '../outside/notes.txt' }),
  written: await new ProbeWriteFile(runtime).call({ path: ${JSON.stringify(outsideFile)}, content: 'x' }),
};
`;
}

/** Runs a TypeScript module with `cwd` as the process's directory, and what it printed with `console.log`. */
async function runModule(
  file: string,
  cwd: string,
): Promise<{ exports: Record<string, unknown>; printed: unknown[][] }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const exports = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
    return { exports, printed: log.mock.calls };
  } finally {
    process.chdir(before);
    log.mockRestore();
  }
}

describe("the root README's quick start", () => {
  // The snippet makes its own runtime, on the local disk: the other backends' runs would repeat this one.
  test.runIf(backendHas('this-process'))(
    'reads a file of the work dir, and refuses whatever leaves it, read or write',
    async ({ workspace }) => {
      await workspace.write('src/index.ts', 'export const answer = 42;\n');
      const outsideFile = await workspace.write(workspace.outside('notes.txt'), 'private\n');
      await workspace.symlink('etc', '/etc');
      const module = path.join(workspace.root, 'snippet', 'quick-start.ts');
      await workspace.write(module, `${await firstTypeScriptBlock(README)}${probesOf(outsideFile)}`);

      const { exports, printed } = await runModule(module, workspace.workDir);
      expect(printed).toEqual([
        [false, '1 lines read from file starting from line 1. Total lines in file: 1. End of file reached.'],
        ['     1\texport const answer = 42;\n'],
      ]);
      const probes = exports['probes'] as Record<string, ToolReturnValue>;
      const answers = Object.fromEntries(
        Object.entries(probes).map(([name, result]) => [
          name,
          [result.isError, result.message, result.brief],
        ]),
      );
      expect(answers).toEqual({
        passwd: [true, '`/etc/passwd` is outside the workspace.', 'Outside workspace'],
        throughLink: [true, '`etc/passwd` is outside the workspace.', 'Outside workspace'],
        relative: [true, '`../outside/notes.txt` is outside the workspace.', 'Outside workspace'],
        written: [true, `\`${outsideFile}\` is outside the workspace.`, 'Outside workspace'],
      });
      expect(await fs.readFile(outsideFile, 'utf8')).toBe('private\n');
    },
  );
});
