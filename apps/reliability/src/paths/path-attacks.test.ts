import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRuntime, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import { isWithinDirectory } from '@kimi-tools/core/toolkit';
import {
  createTempWorkspace,
  forwardingFileSystem,
  recordingApproval,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools, type Tools } from '../support/all-tools.js';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';
import { toolResultProblem } from '../support/tool-result-shape.js';
import { snapshotDifferences, snapshotTree, type TreeSnapshot } from '../support/tree-snapshot.js';
import { attackCorpus, type Attempt } from './attack-corpus.js';
import { createAttackTree, DENY_GLOBS, SECRETS, type AttackTree } from './attack-tree.js';

// docs/paths.md under attack: every path of the corpus goes through every tool, on a runtime with
// `outside: 'deny'`, deny globs, a sensitive `.env`, yolo-like approval and no read-before-write (so the path policy
// alone stands between the model and the disk). Afterwards: nothing outside the work dir, nothing denied and no
// symlink changed; no secret in any result (the `.env` one may only appear in the diff shown to the user, since
// docs/paths.md#sensitive-files lets tools write sensitive files); approval was only ever asked for allowed paths; and every attempt
// marked `refused` was refused by every tool that takes it as a path.

const MARKER = 'PWNED_BY_PATH_ATTACK';
/**
 * Each attempt goes through one call in this many (a different one for each attempt, so every tool meets every kind):
 * every call on the local disk and in soak, a quarter over SSH in CI, where each call costs round trips.
 */
const ONE_CALL_IN = iterations(1, 1, { overSsh: 4 });

let workspace: TempWorkspace;
let root: string;
let tree: AttackTree;
let baseline: TreeSnapshot;
let runtime: ToolRuntime;
/** Approves every request the tools make, and keeps them. */
const approval = recordingApproval();

/** A change under the root is allowed when it is inside the work dir, not denied, and not one of the planted links. */
function changeAllowed(entry: string): boolean {
  const relative = entry.slice(2);
  if (!relative.startsWith(`work${path.sep}`)) return false;
  const inWork = relative.slice('work/'.length);
  if (inWork.startsWith(`secrets${path.sep}`) || inWork === 'secrets') return false;
  if (inWork.startsWith(`.git${path.sep}`) || inWork === '.git') return false;
  return !baseline.get(relative)?.startsWith('link:');
}

/** Where an approved write may go: inside the real work dir and not under a denied directory. */
function approvalAllowed(requestPath: string): boolean {
  if (!isWithinDirectory(requestPath, tree.workDir)) return false;
  return ['secrets', '.git'].every(
    (denied) => !isWithinDirectory(requestPath, path.join(tree.workDir, denied)),
  );
}

interface Invocation {
  tool: string;
  args: Record<string, unknown>;
  /** Whether the attempted path is what the tool resolves (so a `refused` attempt must be refused). */
  takesPath: boolean;
  writes: boolean;
}

/** Near misses of each secret, so StrReplaceFile's "closest text" excerpt would quote the file if it got that far. */
const nearMisses = Object.values(SECRETS).map((secret) => `${secret.slice(0, -1)}#`);

function invocationsFor(attempt: Attempt): Invocation[] {
  const p = attempt.path;
  const reads: Invocation[] = [
    { tool: 'ReadFile', args: { path: p }, takesPath: true, writes: false },
    { tool: 'ReadFile', args: { path: p, line_offset: -5 }, takesPath: true, writes: false },
    { tool: 'ReadMediaFile', args: { path: p }, takesPath: true, writes: false },
    {
      tool: 'Glob',
      args: { pattern: '**', directory: p, include_ignored: true },
      takesPath: true,
      writes: false,
    },
    { tool: 'Glob', args: { pattern: p, include_ignored: true }, takesPath: false, writes: false },
    {
      tool: 'Grep',
      args: { pattern: 'SECRET', path: p, output_mode: 'content', include_ignored: true },
      takesPath: true,
      writes: false,
    },
    { tool: 'Grep', args: { pattern: '.', path: p, include_ignored: true }, takesPath: true, writes: false },
  ];
  if (attempt.systemPath) return reads;
  return [
    ...reads,
    { tool: 'WriteFile', args: { path: p, content: MARKER }, takesPath: true, writes: true },
    { tool: 'WriteFile', args: { path: p, content: MARKER, mode: 'append' }, takesPath: true, writes: true },
    {
      tool: 'StrReplaceFile',
      args: { path: p, edit: { old: 'SECRET', new: MARKER, replace_all: true } },
      takesPath: true,
      writes: true,
    },
    ...nearMisses.map((old) => ({
      tool: 'StrReplaceFile',
      args: { path: p, edit: { old, new: MARKER } },
      takesPath: true,
      writes: true,
    })),
  ];
}

let tools: Tools;

beforeAll(async () => {
  workspace = await createTempWorkspace();
  root = workspace.root;
  tree = await createAttackTree(workspace);
  baseline = await snapshotTree(root);
  runtime = createRuntime({
    workDir: tree.workDir,
    // `~` must point at the fake home inside the test root, so a broken `~` rule could only ever touch that.
    fs: { ...forwardingFileSystem(workspace.fs), homeDir: tree.home },
    approval,
    outside: 'deny',
    deny: DENY_GLOBS,
    readBeforeWrite: false,
  });
  tools = allTools(runtime);
});

afterAll(async () => {
  await workspace.cleanup();
});

/** What is wrong with one call's result and effects (empty when nothing). */
async function judgeCall(attempt: Attempt, call: Invocation, result: ToolReturnValue): Promise<string[]> {
  const problems: string[] = [];
  const shape = toolResultProblem(result);
  if (shape) problems.push(`malformed result: ${shape}`);
  const modelSees = JSON.stringify([result.output, result.message, result.brief, result.extras ?? null]);
  const userSees = JSON.stringify(result.display);
  for (const [name, secret] of Object.entries(SECRETS)) {
    if (modelSees.includes(secret)) problems.push(`the ${name} secret reached the model`);
    if (name !== 'env' && userSees.includes(secret))
      problems.push(`the ${name} secret was shown in the display`);
  }
  if (attempt.expect === 'refused' && call.takesPath && !result.isError) problems.push('was not refused');
  // Over SSH a call's lock is let go by requests it sends and does not wait for (a rename into a grave directory, then
  // two removals); the backend carries out requests in order, so once one more request is answered they are done, and
  // the disk read below does not find the grave vanishing under it.
  await runtime.fs.stat(root);
  const changed = snapshotDifferences(baseline, await snapshotTree(root));
  if (changed.length > 0) {
    if (!call.writes || result.isError)
      problems.push(`changed ${changed.join(', ')} without a successful write`);
    const forbidden = changed.filter((entry) => !changeAllowed(entry));
    if (forbidden.length > 0) problems.push(`wrote where the policy forbids: ${forbidden.join(', ')}`);
    await fs.rm(root, { recursive: true, force: true });
    await fs.mkdir(root);
    await createAttackTree(workspace);
  }
  return problems;
}

describe('path attacks through every tool', () => {
  it('the corpus has at least 50 attempts of every promised kind', () => {
    const corpus = attackCorpus(tree);
    expect(corpus.length).toBeGreaterThanOrEqual(50);
    const kinds = new Set(corpus.map((attempt) => attempt.kind.split(' ')[0]));
    for (const kind of [
      'dot-dot',
      'absolute',
      'prefix',
      'symlink',
      'UNC',
      'NUL',
      'tilde',
      'drive',
      'long',
      'look-alike',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it('none reads a denied, sensitive or outside file, and none writes where the policy forbids', async () => {
    const corpus = attackCorpus(tree);
    const violations: string[] = [];
    let calls = 0;
    let refusals = 0;
    let successes = 0;
    for (const [index, attempt] of corpus.entries()) {
      for (const [order, call] of invocationsFor(attempt).entries()) {
        if ((index + order) % ONE_CALL_IN !== 0) continue;
        calls++;
        let result: ToolReturnValue;
        try {
          result = await (tools[call.tool] as Tools[string]).call(call.args);
        } catch (error) {
          violations.push(`${call.tool} ${JSON.stringify(attempt.path)} threw ${String(error)}`);
          continue;
        }
        if (result.isError) refusals++;
        else successes++;
        const problems = await judgeCall(attempt, call, result);
        const shown = attempt.path.length > 80 ? `${attempt.path.slice(0, 80)}…` : attempt.path;
        for (const problem of problems) {
          violations.push(
            `[${attempt.kind}] ${call.tool}(${JSON.stringify({ ...call.args, path: shown })}): ${problem}`,
          );
        }
      }
    }
    const approvalRequests = approval.requests.map((request) => request.path);
    const badApprovals = approvalRequests.filter((request) => !approvalAllowed(request));
    report('path attacks', {
      attempts: corpus.length,
      calls,
      refusals,
      successes,
      approvals: approvalRequests.length,
      badApprovals: badApprovals.length,
      violations: violations.length,
    });
    expect(violations).toEqual([]);
    expect(badApprovals).toEqual([]);
  });

  it('a search of the whole workspace shows neither denied nor sensitive content', async () => {
    const problems: string[] = [];
    for (const args of [
      { pattern: 'SECRET', output_mode: 'content', include_ignored: true },
      { pattern: 'SECRET', output_mode: 'content', include_ignored: true, '-C': 2 },
      { pattern: 'SECRET', output_mode: 'files_with_matches', include_ignored: true },
      { pattern: 'SECRET', output_mode: 'count_matches', include_ignored: true },
    ]) {
      const result = await (tools['Grep'] as Tools[string]).call(args);
      const text = JSON.stringify(result);
      for (const [name, secret] of Object.entries(SECRETS)) {
        if (text.includes(secret)) problems.push(`Grep ${JSON.stringify(args)} shows the ${name} secret`);
      }
    }
    expect(problems).toEqual([]);
  });
});
