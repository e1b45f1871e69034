import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrReplaceFile } from '@kimi-tools/replace';
import { test } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { describe, expect } from 'vitest';
import { addDiagnostics } from './add-diagnostics.js';
import type { DiagnosticsReport } from './report/diagnostics-report.js';

// The corpus (corpus/<language>/): a clean file, the same file with one syntax error, edits that break the clean
// file, and correct edits of the broken one. Every edit goes through StrReplaceFile on a runtime with diagnostics.

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../corpus');

interface Edits {
  file: string;
  broken: string;
  breaking: { old: string; new: string }[];
  correct: { old: string; new: string }[];
}

async function corpus(): Promise<{ language: string; edits: Edits }[]> {
  const languages = (await fs.readdir(CORPUS)).sort();
  return Promise.all(
    languages.map(async (language) => ({
      language,
      edits: JSON.parse(await fs.readFile(path.join(CORPUS, language, 'edits.json'), 'utf8')) as Edits,
    })),
  );
}

describe('the diagnostics corpus', () => {
  test('catches at least 98 % of the errors edits introduce, and reports no pre-existing problem as new', async ({
    workspace,
    runtime,
  }) => {
    addDiagnostics(runtime);
    const edit = new StrReplaceFile(runtime);
    const write = new WriteFile(runtime);
    const missed: string[] = [];
    const falseReports: string[] = [];
    let breaking = 0;
    let correct = 0;
    for (const { language, edits } of await corpus()) {
      const clean = await fs.readFile(path.join(CORPUS, language, edits.file), 'utf8');
      const broken = await fs.readFile(path.join(CORPUS, language, edits.broken), 'utf8');
      const target = `${language}/${edits.file}`;
      // The samples themselves: the clean one is clean, the broken one has a problem the edits must not report.
      const created = await write.call({ path: target, content: broken });
      const report = created.extras?.diagnostics as DiagnosticsReport;
      expect(report.status, `${target} broken`).toBe('new problems');
      for (const change of edits.breaking) {
        await workspace.write(target, clean, { readBy: runtime });
        const result = await edit.call({ path: target, edit: change });
        expect(result.isError, `${target}: ${result.message}`).toBe(false);
        breaking += 1;
        const { status } = result.extras?.diagnostics as DiagnosticsReport;
        if (status !== 'new problems') missed.push(`${target}: ${change.new}`);
      }
      for (const change of edits.correct) {
        await workspace.write(target, broken, { readBy: runtime });
        const result = await edit.call({ path: target, edit: change });
        expect(result.isError, `${target}: ${result.message}`).toBe(false);
        correct += 1;
        const { status, kept } = result.extras?.diagnostics as DiagnosticsReport;
        if (status !== 'clean' || kept === 0)
          falseReports.push(`${target}: ${change.new}\n${result.message}`);
      }
    }
    expect(breaking).toBeGreaterThanOrEqual(100);
    expect(correct).toBeGreaterThanOrEqual(100);
    expect(falseReports).toEqual([]);
    expect(missed.length / breaking, missed.join('\n')).toBeLessThanOrEqual(0.02);
  });
});
