import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  createRuntime,
  rejectAllApproval,
  type Approval,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import { isWithinDirectory } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleTree, SAMPLE_TEXT_FILES } from '../fixtures/sample-tree.js';
import { allTools, type Tools } from '../support/all-tools.js';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';
import { toolResultProblem } from '../support/tool-result-shape.js';
import { snapshotDifferences, snapshotTree, type TreeSnapshot } from '../support/tree-snapshot.js';
import { hostileArguments, hostileString } from './arbitraries.js';

// docs/reliability.md: "Bad input never crashes a tool and never changes a file: every error path leaves the bytes on disk as
// they were." fast-check throws hostile arguments at every tool. For each case: `call` resolves (never throws),
// to a well-formed ToolReturnValue (docs/results.md); on an error, or from a tool that only reads, every byte, name and
// link under the test root is as before; a successful write stays inside the work dir and was approved for a path
// inside it; and the sensitive file's secret never reaches the model.

const RUNS = iterations(100, 10_000);
const SECRET = 'hostile-input-secret';

let workspace: TempWorkspace;
let root: string;
let workDir: string;
let baseline: TreeSnapshot;
let textFiles: string[];
let names: string[];
const cases: Record<string, number> = {};
/** Cases per tool that succeeded, so the report shows the generators reach the tools' real work too. */
const successes: Record<string, number> = {};
const approvalViolations: string[] = [];

/** Approves writes inside the work dir and refuses (and records) any request for a path outside it. */
function insideOnlyApproval(): Approval {
  return {
    async request(request) {
      if (isWithinDirectory(request.path, workDir)) return { kind: 'approve' };
      approvalViolations.push(`${request.action}: ${request.path}`);
      return { kind: 'reject', feedback: 'outside the work dir' };
    },
  };
}

interface Agent {
  runtime: ToolRuntime;
  tools: Tools;
}

let agents: { approving: Agent; rejecting: Agent };

function makeAgent(approval: Approval): Agent {
  const runtime = createRuntime({ workDir, approval, outside: 'deny' });
  return {
    runtime,
    tools: allTools(runtime),
  };
}

/** Reads every text file with both agents, so read-before-write lets writes get as far as they can. */
async function readEverything(): Promise<void> {
  for (const agent of Object.values(agents)) {
    for (const file of textFiles) await agent.tools['ReadFile']?.call({ path: file });
  }
}

/** Puts the work dir back to the sample tree after a call that legitimately changed it. */
async function resetWorkDir(): Promise<void> {
  await fs.rm(workDir, { recursive: true, force: true });
  await fs.mkdir(workDir);
  await createSampleTree(workspace);
  await readEverything();
}

beforeAll(async () => {
  workspace = await createTempWorkspace();
  ({ root, workDir } = workspace);
  // A sibling the tools must never touch (outside: 'deny').
  await workspace.write(workspace.outside('keep.txt'), 'outside bytes\n');
  textFiles = await createSampleTree(workspace);
  names = [
    ...textFiles,
    'bin.dat',
    'img.png',
    '.env',
    'link.txt',
    'sub',
    'sub/dir',
    'missing.txt',
    'new/dir/f.txt',
  ];
  agents = { approving: makeAgent(insideOnlyApproval()), rejecting: makeAgent(rejectAllApproval()) };
  await readEverything();
  baseline = await snapshotTree(root);
});

afterAll(async () => {
  const total = Object.values(cases).reduce((sum, count) => sum + count, 0);
  const figures: Record<string, number> = {};
  for (const [tool, count] of Object.entries(cases)) {
    figures[tool] = count;
    figures[`${tool}Ok`] = successes[tool] ?? 0;
  }
  report('hostile input', { ...figures, total, approvalViolations: approvalViolations.length });
  await workspace.cleanup();
});

function pathArbitrary(): fc.Arbitrary<unknown> {
  const absolute = fc.constantFrom(...names).map((name) => path.join(workDir, name));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: absolute },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '.',
        '..',
        '/',
        workDir,
        `${workDir}/`,
        `${workDir}/../outside/keep.txt`,
        '../outside/keep.txt',
        '~',
        '~/',
        'new file ✓.txt',
        'sub/new/deeper/x.txt',
        // Writes that fail after their directories exist must take those directories away again.
        'd\ud800/n.txt',
        'newdir/',
        'new/dir/',
        `newdir/${'x'.repeat(256)}`,
        `nd/a/${'é'.repeat(128)}`,
      ),
    },
    { weight: 3, arbitrary: hostileString(names) },
  );
}

const WRITE_TOOLS = new Set(['WriteFile', 'StrReplaceFile']);

/** Runs one hostile case and returns what is wrong with it (empty when nothing). */
async function runCase(toolName: string, approve: boolean, args: unknown): Promise<string[]> {
  cases[toolName] = (cases[toolName] ?? 0) + 1;
  const agent = approve ? agents.approving : agents.rejecting;
  let result: ToolReturnValue;
  try {
    result = await (agent.tools[toolName] as Agent['tools'][string]).call(args);
  } catch (error) {
    return [`threw: ${String(error)}`];
  }
  if (!result.isError) successes[toolName] = (successes[toolName] ?? 0) + 1;
  const problems: string[] = [];
  const shape = toolResultProblem(result);
  if (shape) problems.push(`malformed result: ${shape}`);
  const modelSees = JSON.stringify([result.output, result.message, result.extras ?? null]);
  if (modelSees.includes(SECRET)) problems.push('the sensitive file reached the model');

  const after = await snapshotTree(root);
  const changed = snapshotDifferences(baseline, after);
  if (changed.length > 0) {
    const mayChange = !result.isError && WRITE_TOOLS.has(toolName);
    const escaped = changed.filter((entry) => !entry.slice(2).startsWith(`work${path.sep}`));
    // An error leaves no new file or directory, and changes none (docs/reliability.md).
    if (!mayChange) problems.push(`${result.isError ? 'an error' : 'a read'} changed ${changed.join(', ')}`);
    else if (escaped.length > 0) problems.push(`a write changed ${escaped.join(', ')} outside the work dir`);
    await resetWorkDir();
  }
  return problems;
}

function describeArgs(args: unknown): string {
  const text = (() => {
    try {
      return JSON.stringify(args, (_key, value: unknown) =>
        typeof value === 'bigint' ? `${value}n` : value,
      );
    } catch {
      return fc.stringify(args);
    }
  })();
  return text === undefined
    ? 'undefined'
    : text.length > 300
      ? `${text.slice(0, 300)}… (${text.length} chars)`
      : text;
}

/** Runs the property for one tool; `targeted` adds whole argument objects aimed at the tool's success path. */
async function checkTool(
  toolName: string,
  fields: Record<string, fc.Arbitrary<unknown>>,
  required: string[],
  targeted?: fc.Arbitrary<unknown>,
): Promise<void> {
  const failures: string[] = [];
  const hostile = hostileArguments(fields, required, names);
  const args = targeted
    ? fc.oneof({ weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: targeted })
    : hostile;
  await fc.assert(
    fc.asyncProperty(fc.boolean(), args, async (approve, args) => {
      const problems = await runCase(toolName, approve, args);
      if (problems.length > 0) failures.push(`${describeArgs(args)}: ${problems.join('; ')}`);
      return problems.length === 0;
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  expect(failures).toEqual([]);
}

// Valid values of each field type; the mixed flavour of hostileArguments adds every invalid value on top.
const bool = () => fc.boolean();
const int = (min: number, max: number) => fc.integer({ min, max });

describe('hostile arguments to every tool', () => {
  it('ReadFile', async () => {
    await checkTool(
      'ReadFile',
      {
        path: pathArbitrary(),
        line_offset: fc.oneof(
          int(-1000, -1),
          int(1, 10),
          fc.constantFrom(1000, 2 ** 31, Number.MAX_SAFE_INTEGER),
        ),
        n_lines: fc.oneof(int(1, 1000), fc.constantFrom(1001, 2 ** 31, Number.MAX_SAFE_INTEGER)),
      },
      ['path'],
    );
  });

  it('WriteFile', async () => {
    await checkTool(
      'WriteFile',
      {
        path: pathArbitrary(),
        content: hostileString(names),
        mode: fc.constantFrom('overwrite', 'append'),
      },
      ['path', 'content'],
    );
  });

  it('StrReplaceFile', async () => {
    const snippets = Object.values(SAMPLE_TEXT_FILES)
      .filter((content): content is string => typeof content === 'string')
      .flatMap((content) => content.split('\n').filter(Boolean));
    const old = fc.oneof(
      fc.constantFrom(...snippets, 'hello', 'line', 'a', '\n', 'é', '“hello”', '"hello"', 'alpha\nbeta'),
      hostileString(names),
    );
    const editOf = (oldText: fc.Arbitrary<string>) =>
      fc
        .tuple(oldText, hostileString(names), fc.option(bool(), { nil: undefined }))
        .map(([o, n, all]) =>
          all === undefined ? { old: o, new: n } : { old: o, new: n, replace_all: all },
        );
    const edit = editOf(old);
    // A real file and a real piece of it, as a model that read the file would send.
    const targeted = fc
      .constantFrom(...Object.entries(SAMPLE_TEXT_FILES).filter(([, content]) => typeof content === 'string'))
      .chain(([file, content]) => {
        const pieces = String(content)
          .split(/(?<=\s)/)
          .filter((piece) => piece.trim() !== '');
        const aimed = editOf(fc.constantFrom(...pieces));
        const edits = fc.oneof(aimed, fc.array(aimed, { minLength: 1, maxLength: 3 }));
        // Models also send the edit JSON-encoded in a string (docs/results.md#argument-validation).
        return fc.record({
          path: fc.constant(file),
          edit: fc.oneof(
            edits,
            edits.map((edit) => JSON.stringify(edit)),
          ),
        });
      });
    await checkTool(
      'StrReplaceFile',
      {
        path: pathArbitrary(),
        edit: fc.oneof(
          { weight: 4, arbitrary: edit },
          { weight: 4, arbitrary: fc.array(edit, { minLength: 1, maxLength: 4 }) },
          { weight: 1, arbitrary: fc.constant([]) },
        ),
      },
      ['path', 'edit'],
      targeted,
    );
  });

  it('Glob', async () => {
    await checkTool(
      'Glob',
      {
        pattern: fc.oneof(
          fc.constantFrom(
            '**',
            '**/*',
            '*.txt',
            '**/*.{ts,txt}',
            '.*',
            '[a-z]*',
            '!(*.txt)',
            '{1..5}',
            '../*',
            '/*',
            'sub/**',
          ),
          hostileString(names),
        ),
        directory: fc.oneof(fc.constant(null), pathArbitrary()),
        include_dirs: bool(),
        include_ignored: bool(),
      },
      ['pattern'],
    );
  });

  it('Grep', async () => {
    const context = fc.oneof(fc.constant(null), int(0, 5), fc.constant(2 ** 31));
    await checkTool(
      'Grep',
      {
        pattern: fc.oneof(
          fc.constantFrom(
            'hello',
            '.*',
            '(a|b)+',
            '\\',
            '[',
            '(?i)HELLO',
            '^',
            '$',
            '\\p{L}+',
            '(?s).',
            'a{1000000}',
            'API_KEY',
          ),
          hostileString(names),
        ),
        path: pathArbitrary(),
        glob: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          { weight: 2, arbitrary: fc.constantFrom('*.txt', '**/*.ts', '!*.txt', '{', '[') },
          { weight: 1, arbitrary: hostileString(names) },
        ),
        output_mode: fc.constantFrom('content', 'files_with_matches', 'count_matches'),
        '-B': context,
        '-A': context,
        '-C': context,
        '-n': bool(),
        '-i': bool(),
        type: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          { weight: 2, arbitrary: fc.constantFrom('ts', 'js', 'rust', 'no-such-type', '') },
          { weight: 1, arbitrary: hostileString(names) },
        ),
        head_limit: context,
        offset: fc.oneof(int(0, 5), fc.constant(Number.MAX_SAFE_INTEGER)),
        multiline: bool(),
        include_ignored: bool(),
      },
      ['pattern'],
    );
  });

  it('ReadMediaFile', async () => {
    await checkTool('ReadMediaFile', { path: pathArbitrary() }, ['path']);
  });

  it('asked for approval only for paths inside the work dir', () => {
    expect(approvalViolations).toEqual([]);
  });
});
