import { describe, expect, it } from 'vitest';
import type { Problem } from '../problem.js';
import { diagnosticsSection } from './diagnostics-report.js';

const problem = (line: number, severity: Problem['severity'], message: string): Problem => ({
  line,
  column: 1,
  severity,
  message,
  key: message,
});

describe('the diagnostics report', () => {
  it('lists errors first, then the rest by position, and escapes what could break a line', () => {
    const section = diagnosticsSection(
      'dir/a\nb.yaml',
      {
        status: 'checked',
        checker: 'yaml',
        added: [
          problem(1, 'warning', 'Unused anchor'),
          problem(9, 'error', 'Bad\u001b[2K'),
          problem(3, 'error', 'Missing'),
        ],
        kept: 0,
        fixed: 0,
      },
      10,
    );
    expect(section.text).toBe(
      [
        'Diagnostics: new problems, this change introduced 3 problems.',
        '"dir/a\\nb.yaml":3:1 error Missing',
        '"dir/a\\nb.yaml":9:1 error "Bad\\u001b[2K"',
        '"dir/a\\nb.yaml":1:1 warning Unused anchor',
      ].join('\n'),
    );
  });

  // docs/diagnostics.md: `a:1:2:3:1 error Missing` read as line 1, column 2 of `a`.
  it('quotes a path holding `:`, so the line splits at its first `:`', () => {
    const section = diagnosticsSection(
      'a:1:2',
      {
        status: 'checked',
        checker: 'yaml',
        added: [problem(3, 'error', 'Missing: a key')],
        kept: 0,
        fixed: 0,
      },
      10,
    );
    expect(section.text?.split('\n')[1]).toBe('"a:1:2":3:1 error Missing: a key');
  });

  it('says a checker failed without failing itself', () => {
    const section = diagnosticsSection(
      'a.py',
      { status: 'no checker', reason: 'failed', detail: 'grammar missing' },
      10,
    );
    expect(section.text).toBe('Diagnostics: no checker, the checker failed: grammar missing');
    expect(section.extras).toEqual({
      status: 'no checker',
      reason: 'failed',
      problems: [],
      kept: 0,
      fixed: 0,
    });
  });
});
