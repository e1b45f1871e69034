import path from 'node:path';
import type { ToolReturnValue } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import type { ApprovalRecord } from './approval-ui.js';
import { fillPlaceholders, type Placeholders } from './placeholders.js';
import { outputText } from './result-render.js';
import type { FileExpectation, StepExpectation } from './script.js';
import { readBytesIfThere } from './session-files.js';

/** Where a step's file expectations look: the session's file system and its work dir. */
export interface FilesToCheck {
  fs: FileSystem;
  workDir: string;
}

/** What a step did, as far as expectations can see. */
export interface StepOutcome {
  result: ToolReturnValue;
  approvals: readonly ApprovalRecord[];
}

/** The result of checking one step's expectations. */
export interface ExpectationReport {
  /** How many checks ran. */
  checked: number;
  /** One sentence per failed check. */
  failures: string[];
}

// Short, quoted and escaped, so `\r\n` differences are visible in a failure.
function preview(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.length > 120 ? `${quoted.slice(0, 117)}…"` : quoted;
}

function lineEndingProblem(bytes: Buffer, wanted: 'lf' | 'crlf'): string | undefined {
  let lf = 0;
  let crlf = 0;
  let loneCr = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      if (i > 0 && bytes[i - 1] === 0x0d) crlf++;
      else lf++;
    } else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) {
      loneCr++;
    }
  }
  const found = `${crlf} CRLF, ${lf} LF, ${loneCr} lone CR`;
  if (wanted === 'crlf' && (lf > 0 || loneCr > 0)) return `every line break CRLF, found ${found}`;
  if (wanted === 'lf' && (crlf > 0 || loneCr > 0)) return `every line break LF, found ${found}`;
  return undefined;
}

async function checkFile(
  expected: FileExpectation,
  { fs, workDir }: FilesToCheck,
  placeholders: Placeholders,
): Promise<ExpectationReport> {
  const shown = fillPlaceholders(expected.path, placeholders);
  const file = (fs.platform === 'win32' ? path.win32 : path.posix).resolve(workDir, shown);
  const failures: string[] = [];
  let checked = 0;
  const bytes = await readBytesIfThere(fs, file);
  const mustExist =
    expected.exists ??
    (expected.content !== undefined || expected.contains !== undefined || expected.lineEndings !== undefined);
  checked++;
  if (!mustExist) {
    if (bytes !== undefined) failures.push(`file ${shown} should not exist, but it does`);
    return { checked, failures };
  }
  if (bytes === undefined) {
    failures.push(`file ${shown} should exist, but it does not`);
    return { checked, failures };
  }
  if (expected.content !== undefined) {
    checked++;
    if (!bytes.equals(Buffer.from(expected.content, 'utf8'))) {
      failures.push(
        `file ${shown} should hold exactly ${preview(expected.content)}, but holds ${preview(bytes.toString('utf8'))}`,
      );
    }
  }
  if (expected.contains !== undefined) {
    checked++;
    if (!bytes.toString('utf8').includes(expected.contains)) {
      failures.push(`file ${shown} should contain ${preview(expected.contains)}, but does not`);
    }
  }
  if (expected.lineEndings !== undefined) {
    checked++;
    const problem = lineEndingProblem(bytes, expected.lineEndings);
    if (problem) failures.push(`file ${shown} should have ${problem}`);
  }
  return { checked, failures };
}

/** Checks a step's expectations against its outcome and the session's files. */
export async function checkExpectations(
  expect: StepExpectation,
  outcome: StepOutcome,
  where: FilesToCheck,
  placeholders: Placeholders,
): Promise<ExpectationReport> {
  const { result, approvals } = outcome;
  const failures: string[] = [];
  let checked = 0;
  if (expect.isError !== undefined) {
    checked++;
    if (result.isError !== expect.isError) {
      const got = result.isError ? `an error (${result.brief || 'no brief'})` : 'a success';
      failures.push(`expected ${expect.isError ? 'an error' : 'a success'}, got ${got}`);
    }
  }
  if (expect.brief !== undefined) {
    checked++;
    if (result.brief !== expect.brief)
      failures.push(`expected brief ${preview(expect.brief)}, got ${preview(result.brief)}`);
  }
  if (expect.message !== undefined) {
    checked++;
    if (!result.message.includes(expect.message)) {
      failures.push(
        `expected the message to contain ${preview(expect.message)}, got ${preview(result.message)}`,
      );
    }
  }
  if (expect.output !== undefined) {
    checked++;
    if (!outputText(result.output).includes(expect.output)) {
      failures.push(`expected the output to contain ${preview(expect.output)}`);
    }
  }
  if (expect.approval !== undefined) {
    checked++;
    const actions = approvals.map((record) => record.action);
    if (expect.approval === null && actions.length > 0) {
      failures.push(`expected no approval request, got "${actions.join('", "')}"`);
    } else if (expect.approval !== null && !actions.some((action) => action === expect.approval)) {
      const got = actions.length > 0 ? `"${actions.join('", "')}"` : 'none';
      failures.push(`expected an approval request for "${expect.approval}", got ${got}`);
    }
  }
  const files = expect.file === undefined ? [] : Array.isArray(expect.file) ? expect.file : [expect.file];
  for (const file of files) {
    const report = await checkFile(file, where, placeholders);
    checked += report.checked;
    failures.push(...report.failures);
  }
  return { checked, failures };
}
