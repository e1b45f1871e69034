import { createRuntime, yoloApproval, type ToolRuntime } from '@kimi-tools/core';
import { memoryFileSystem } from '@kimi-tools/core/fs';
import { IgnoreRuleCache } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { Grep } from '../grep.js';
import { GrepParams } from '../grep-params.js';
import { MatcherWorkers } from './matcher-worker.js';
import { runPortableSearch } from './portable-search.js';

// What the portable search says where it cannot be ripgrep, on the memory backend (no `exec`).
function memoryRuntime(files: Record<string, string>): ToolRuntime {
  const fs = memoryFileSystem({
    files: Object.fromEntries(Object.entries(files).map(([name, text]) => [`/work/${name}`, text])),
  });
  return createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
}

const refused = (message: string) => ({
  isError: true,
  output: '',
  message: `Failed to grep. Error: ${message}`,
  brief: 'Failed to grep',
});

describe('the portable search', () => {
  const runtime = memoryRuntime({ 'a.txt': 'zebra\n', 'b.md': 'zebra\n' });

  it('refuses what ripgrep refuses, in its words', async () => {
    const grep = new Grep(runtime);
    expect(await grep.call({ pattern: '(a)\\1' })).toMatchObject(
      refused('regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported'),
    );
    expect(await grep.call({ pattern: 'a(?=b)' })).toMatchObject(
      refused(
        'regex parse error:\n    a(?=b)\n     ^^^\nerror: look-around, including look-ahead and look-behind, is not supported',
      ),
    );
    expect(await grep.call({ pattern: 'a\\nb' })).toMatchObject(
      refused('the literal "\\n" is not allowed in a regex\n\nSet multiline to true to match across lines.'),
    );
    expect(
      await grep.call({ pattern: 'a\\nb', multiline: true, output_mode: 'count_matches' }),
    ).toMatchObject({
      isError: false,
      message: 'No matches found.',
    });
  });

  it('names the types it knows when given another', async () => {
    expect(await new Grep(runtime).call({ pattern: 'zebra', type: 'md' })).toMatchObject({ output: 'b.md' });
    const unknown = await new Grep(runtime).call({ pattern: 'zebra', type: 'cobol' });
    expect(unknown).toMatchObject({ isError: true, brief: 'Failed to grep' });
    expect(unknown.message).toMatch(
      /^Failed to grep\. Error: unrecognized file type: cobol \(the portable search knows asm, c, clojure, .*, yaml, zig\)$/,
    );
  });

  it('stops a pattern that backtracks for ever at the timeout, and the next call works', async () => {
    const slow = memoryRuntime({ 'slow.txt': `${'a'.repeat(40)}\n`, 'fast.txt': 'ab\n' });
    const grep = new Grep(slow, { timeoutMs: 1000 });
    // Linear in Rust; exponential in a backtracking engine.
    expect(await grep.call({ pattern: '(a|aa)+b', output_mode: 'content', path: 'slow.txt' })).toMatchObject({
      isError: true,
      output: '',
      message: 'Grep timed out after 1s. Try a more specific path or pattern.',
      brief: 'Grep timed out',
    });
    expect(await grep.call({ pattern: 'a+b', output_mode: 'content' })).toMatchObject({
      isError: false,
      output: 'fast.txt:1:ab',
      extras: { total: 1, search: 'portable' },
    });
  });

  it('stops at once when the call is aborted', async () => {
    const slow = memoryRuntime({ 'slow.txt': `${'a'.repeat(40)}\n` });
    const controller = new AbortController();
    const pending = new Grep(slow).call({ pattern: '(a|aa)+b' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject(refused('The search was aborted.'));
  });

  it('ends lines at a lone \\r too, as ReadFile does', async () => {
    const grep = new Grep(
      memoryRuntime({
        'mac.txt': 'alpha\rbeta\rgamma needle\rdelta\r',
        'mixed.txt': 'a\r\nb\rc\nneedle\r\n',
      }),
    );
    expect(await grep.call({ pattern: 'needle', output_mode: 'content', '-C': 1 })).toMatchObject({
      output: [
        'mac.txt-2-beta',
        'mac.txt:3:gamma needle',
        'mac.txt-4-delta',
        '--',
        'mixed.txt-3-c',
        'mixed.txt:4:needle',
      ].join('\n'),
      extras: { total: 6, search: 'portable' },
    });
  });

  it('stops past its output limit, keeping what it printed', async () => {
    const line = `${'zebra '.repeat(50)}\n`;
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [`f${index}.txt`, line.repeat(50)]),
    );
    const run = await runPortableSearch({
      fs: memoryRuntime(files).fs,
      params: GrepParams.parse({ pattern: 'zebra', output_mode: 'content' } as never),
      base: '/work',
      fileName: undefined,
      timeoutMs: 20_000,
      cache: new IgnoreRuleCache(),
      workers: new MatcherWorkers(),
      maxOutputBytes: 40_000,
    });
    expect(run).toMatchObject({ outputCapped: true, timedOut: false, aborted: false, exitCode: 0 });
    // Whole files are printed at a time: the one that passed the limit, and none after it.
    expect(run.stdout.length).toBeGreaterThan(40_000);
    expect(run.stdout.length).toBeLessThan(40_000 + 20_000);
  });
});
