import { promises as fs } from 'node:fs';
import path from 'node:path';
import { toolError, toolOk } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { checkExpectations } from './expectations.js';

/** The kit's test, with `placeholders`: what `{{workdir}}` and `{{outside}}` stand for, the workspace's directories. */
const it = test.extend('placeholders', ({ workspace }) => ({
  workdir: workspace.workDir,
  outside: workspace.outsideDir,
}));

const ok = { result: toolOk({ message: 'File successfully edited.', output: 'line one' }), approvals: [] };

describe('checkExpectations', () => {
  it('passes when the result matches, counting each check', async ({ workspace, placeholders }) => {
    const report = await checkExpectations(
      { isError: false, brief: '', message: 'successfully', output: 'one', approval: null },
      ok,
      { fs: localFileSystem, workDir: workspace.workDir },
      placeholders,
    );
    expect(report).toEqual({ checked: 5, failures: [] });
  });

  it('says what differs for the result fields', async ({ workspace, placeholders }) => {
    const outcome = {
      result: toolError({ message: 'Edit 1: found 2 matches', brief: 'Ambiguous match' }),
      approvals: [],
    };
    const report = await checkExpectations(
      { isError: false, brief: 'No match', message: 'not found', output: 'x', approval: 'edit file' },
      outcome,
      { fs: localFileSystem, workDir: workspace.workDir },
      placeholders,
    );
    expect(report.failures).toEqual([
      'expected a success, got an error (Ambiguous match)',
      'expected brief "No match", got "Ambiguous match"',
      'expected the message to contain "not found", got "Edit 1: found 2 matches"',
      'expected the output to contain "x"',
      'expected an approval request for "edit file", got none',
    ]);
  });

  it('checks the approval actions asked', async ({ workspace, placeholders }) => {
    const outcome = {
      ...ok,
      approvals: [
        {
          action: 'edit file outside of working directory' as const,
          description: 'Write file `/x`',
          answer: { kind: 'approve' as const },
          source: 'auto: no terminal',
        },
      ],
    };
    expect(
      (
        await checkExpectations(
          { approval: 'edit file outside of working directory' },
          outcome,
          { fs: localFileSystem, workDir: workspace.workDir },
          placeholders,
        )
      ).failures,
    ).toEqual([]);
    expect(
      (
        await checkExpectations(
          { approval: null },
          outcome,
          { fs: localFileSystem, workDir: workspace.workDir },
          placeholders,
        )
      ).failures,
    ).toEqual(['expected no approval request, got "edit file outside of working directory"']);
  });

  it('compares file content byte for byte, so a lost CR is a failure', async ({
    workspace,
    placeholders,
  }) => {
    await fs.writeFile(path.join(workspace.workDir, 'a.ini'), 'x = 1\r\ny = 2\n');
    const report = await checkExpectations(
      {
        file: [
          { path: 'a.ini', content: 'x = 1\r\ny = 2\r\n' },
          { path: 'a.ini', lineEndings: 'crlf' },
        ],
      },
      ok,
      { fs: localFileSystem, workDir: workspace.workDir },
      placeholders,
    );
    expect(report.failures).toEqual([
      'file a.ini should hold exactly "x = 1\\r\\ny = 2\\r\\n", but holds "x = 1\\r\\ny = 2\\n"',
      'file a.ini should have every line break CRLF, found 1 CRLF, 1 LF, 0 lone CR',
    ]);
  });

  it('checks substrings, line endings and existence, with placeholders in paths', async ({
    workspace,
    placeholders,
  }) => {
    await fs.writeFile(path.join(placeholders.outside, 'out.md'), 'hello\nworld\n');
    const passing = await checkExpectations(
      {
        file: [
          { path: '{{outside}}/out.md', contains: 'world', lineEndings: 'lf' },
          { path: '{{workdir}}/missing.txt', exists: false },
        ],
      },
      ok,
      { fs: localFileSystem, workDir: workspace.workDir },
      placeholders,
    );
    expect(passing).toEqual({ checked: 4, failures: [] });
    const failing = await checkExpectations(
      {
        file: [
          { path: '{{outside}}/out.md', exists: false },
          { path: 'missing.txt', contains: 'x' },
          { path: '{{outside}}/out.md', contains: 'planet', lineEndings: 'crlf' },
        ],
      },
      ok,
      { fs: localFileSystem, workDir: workspace.workDir },
      placeholders,
    );
    expect(failing.failures).toEqual([
      `file ${placeholders.outside}/out.md should not exist, but it does`,
      'file missing.txt should exist, but it does not',
      `file ${placeholders.outside}/out.md should contain "planet", but does not`,
      `file ${placeholders.outside}/out.md should have every line break CRLF, found 0 CRLF, 2 LF, 0 lone CR`,
    ]);
  });
});
