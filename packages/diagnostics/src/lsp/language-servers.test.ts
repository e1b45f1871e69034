import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ToolRuntime } from '@kimi-tools/core';
import { StrReplaceFile } from '@kimi-tools/replace';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDiagnostics } from '../add-diagnostics.js';
import type { DiagnosticsReport } from '../report/diagnostics-report.js';
import { pyrightLanguageServer, typescriptLanguageServer } from './server-config.js';

// The real servers, installed from the npm registry as dev dependencies. One runtime, so one server per language,
// for the whole file: starting them is the slow part. The budget is generous because CI machines are loaded.

/** The command lines of this process's child processes (Linux's /proc). */
async function childCommandLines(): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      lines.push((await fs.readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' '));
    } catch {
      // The process ended while it was being looked at.
    }
  }
  return lines;
}

describe('language servers', () => {
  let workspace: TempWorkspace;
  let runtime: ToolRuntime;

  beforeAll(async () => {
    workspace = await createTempWorkspace();
    runtime = workspace.runtime();
    addDiagnostics(runtime, {
      servers: [typescriptLanguageServer(), pyrightLanguageServer()],
      serverBudgetMs: 60_000,
    });
    // The first file a server sees makes it load its project (TypeScript's standard library...): done here, so the
    // tests below meet running servers, as every change after the first does.
    await new WriteFile(runtime).call({ path: 'warm.ts', content: 'export const warm: number = 1;\n' });
    await new WriteFile(runtime).call({ path: 'warm.py', content: 'warm: int = 1\n' });
  }, 120_000);
  afterAll(async () => {
    await runtime.close();
    await workspace.cleanup();
  });

  it('typescript-language-server: a type error the edit introduced is reported, an old one is not', async () => {
    await workspace.write('src/a.ts', 'export const n: number = 1;\nexport const s: string = 2;\n', {
      readBy: runtime,
    });
    const result = await new StrReplaceFile(runtime).call({
      path: 'src/a.ts',
      edit: { old: '= 1', new: "= 'x'" },
    });
    const report = result.extras?.diagnostics as DiagnosticsReport;
    expect(report).toMatchObject({ status: 'new problems', checker: 'typescript-language-server', kept: 1 });
    expect(result.message.split('\n').slice(3)).toEqual([
      "src/a.ts:1:14 error Type 'string' is not assignable to type 'number'.",
    ]);
    // The next edit fixes it: the server must be heard again although the document's other problem stays.
    const fixed = await new StrReplaceFile(runtime).call({
      path: 'src/a.ts',
      edit: { old: "= 'x'", new: '= 3' },
    });
    expect(fixed.extras?.diagnostics).toMatchObject({ status: 'clean', kept: 1, fixed: 1 });
  });

  it('pyright: a type error the edit introduced is reported', async () => {
    await workspace.write('a.py', 'x: int = 1\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'a.py',
      edit: { old: '= 1', new: '= "a"' },
    });
    const report = result.extras?.diagnostics as DiagnosticsReport;
    expect(report.status).toBe('new problems');
    expect(report.checker).toBe('pyright');
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ path: 'a.py', line: 1, column: 10, severity: 'error' });
    expect(report.problems[0]!.message).toMatch(
      /"Literal\['a'\]" is not assignable to (declared type )?"int"/,
    );
  });

  it('a server that is too slow for the budget gives timed out, and close() leaves no process behind', async () => {
    const slow = workspace.runtime();
    addDiagnostics(slow, { servers: [typescriptLanguageServer()], serverBudgetMs: 1 });
    const result = await new WriteFile(slow).call({
      path: 'slow.ts',
      content: 'export const a: number = "x";\n',
    });
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: timed out after 1 ms, so the problems this change introduced are unknown.',
    );
    const servers = () =>
      childCommandLines().then((lines) =>
        lines.filter((line) => line.includes('typescript-language-server')),
      );
    expect((await servers()).length).toBe(2);
    await slow.close();
    expect((await servers()).length).toBe(1);
  });

  it('a server that keeps crashing is restarted once, then reported', async () => {
    const starts = path.join(workspace.root, 'starts');
    const crashing = workspace.runtime();
    addDiagnostics(crashing, {
      servers: [
        {
          name: 'crashing',
          command: process.execPath,
          args: ['-e', "require('node:fs').appendFileSync(process.argv[1], 'x'); process.exit(3)", starts],
          languages: { '.txt': 'plaintext' },
        },
      ],
    });
    const write = new WriteFile(crashing);
    const failed =
      'Diagnostics: no checker, the checker failed: language server crashing stopped and was restarted once';
    const first = await write.call({ path: 'a.txt', content: 'one\n' });
    expect(first.isError).toBe(false);
    expect(first.message.split('\n\n').at(-1)).toBe(failed);
    const second = await write.call({ path: 'a.txt', content: 'two\n' });
    expect(second.message.split('\n\n').at(-1)).toBe(failed);
    expect(await fs.readFile(starts, 'utf8')).toBe('xx');
    expect(await workspace.bytes('a.txt')).toEqual([...Buffer.from('two\n')]);
    await crashing.close();
  });
});
