import { SLIP_SAMPLES, type SlipSample } from './slip-samples.js';

/** One edit as a model sends it. */
export interface SlipEdit {
  old: string;
  new: string;
  replace_all?: boolean;
}

/** A call of a write tool. */
export type SlipCall =
  { tool: 'StrReplaceFile'; edit: SlipEdit | SlipEdit[] } | { tool: 'WriteFile'; content: string };

/**
 * One realistic slip: a file, what happened in the session after the model read it (its own earlier calls, a change
 * from outside), the call with the slip, and what was intended: the file it should leave, or the refusal (a brief)
 * that leaves the file as it was.
 */
export interface SlipCase {
  name: string;
  file: string;
  content: string;
  before?: Array<{ call: SlipCall } | { outside: string }>;
  call: SlipCall;
  intended: { file: string } | { refusal: string };
}

const edit = (change: SlipEdit | SlipEdit[]): SlipCall => ({ tool: 'StrReplaceFile', edit: change });

/** 1-based line of `text`'s first occurrence in `content`. */
function lineOf(content: string, text: string): number {
  return content.slice(0, content.indexOf(text)).split('\n').length;
}

/** Each line with ReadFile's prefix, numbered from `first`. */
function numbered(text: string, first: number): string {
  return text
    .split('\n')
    .map((line, index) => `${String(first + index).padStart(6)}\t${line}`)
    .join('\n');
}

/** The indentation a model writes for a file of the other style: 4 spaces per tab, or a tab per level of spaces. */
function otherIndent(text: string, sample: SlipSample): string {
  return text
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
      const rest = line.slice(indent.length);
      if (sample.indent === '\t') return '    '.repeat(indent.length) + rest;
      return '\t'.repeat(Math.floor(indent.length / sample.indent.length)) + rest;
    })
    .join('\n');
}

/** The lines one level less indented when all of them are indented, with trailing spaces: a sloppy copy. */
function sloppy(text: string, sample: SlipSample): string {
  const lines = text.split('\n');
  const dedent = lines.every((line) => line.startsWith(sample.indent));
  return lines.map((line) => (dedent ? line.slice(sample.indent.length) : line) + '  ').join('\n');
}

function applied(content: string, ...edits: Array<{ old: string; new: string }>): string {
  return edits.reduce((text, change) => {
    if (!text.includes(change.old)) throw new Error(`corpus: ${change.old} not in the sample`);
    return text.replace(change.old, () => change.new);
  }, content);
}

function casesOf(sample: SlipSample): SlipCase[] {
  const { name, content, target, anchor } = sample;
  const done = applied(content, target);
  const line = lineOf(content, target.old);
  const base = { file: name, content };
  const againstReplaced = `${target.old}\n${sample.indent}${sample.comment} checked`;
  const note = `${sample.comment} note`;
  const lazyLine = `${sample.indent}${sample.comment} ... existing code ...`;
  return [
    {
      ...base,
      name: `${name}: old copied with ReadFile's line numbers`,
      call: edit({ old: numbered(target.old, line), new: target.new }),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: old and new copied with line numbers`,
      call: edit({ old: numbered(target.old, line), new: numbered(target.new, line) }),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: indented with the other character`,
      call: edit({ old: otherIndent(target.old, sample), new: otherIndent(target.new, sample) }),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: line numbers and the other indentation together`,
      call: edit({
        old: numbered(otherIndent(target.old, sample), line),
        new: otherIndent(target.new, sample),
      }),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: one level less indented, trailing spaces`,
      call: edit({ old: sloppy(target.old, sample), new: sloppy(target.new, sample).replace(/ +$/gm, '') }),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: replayed after a lost answer`,
      before: [{ call: edit(target) }],
      call: edit(target),
      intended: { file: done },
    },
    {
      ...base,
      name: `${name}: insertion after an anchor replayed`,
      before: [{ call: edit(anchor) }],
      call: edit(anchor),
      intended: { file: applied(content, anchor) },
    },
    {
      ...base,
      name: `${name}: a list re-sent whole`,
      before: [{ call: edit([target, anchor]) }],
      call: edit([target, anchor]),
      intended: { file: applied(content, target, anchor) },
    },
    {
      ...base,
      name: `${name}: a list mixing an applied edit and a new one`,
      before: [{ call: edit(target) }],
      call: edit([target, anchor]),
      intended: { refusal: 'Already applied' },
    },
    {
      ...base,
      name: `${name}: an edit against text its earlier edit replaced`,
      before: [{ call: edit(target) }],
      call: edit({ old: target.old, new: againstReplaced }),
      // When the earlier edit kept `old` (an insertion after it), the text is there and the edit applies to it.
      intended: target.new.includes(target.old)
        ? { file: applied(done, { old: target.old, new: againstReplaced }) }
        : { refusal: 'No match' },
    },
    {
      ...base,
      name: `${name}: a formatter added a header line after the read`,
      before: [{ outside: `${sample.comment} generated header\n${content}` }],
      call: edit(target),
      intended: { file: applied(`${sample.comment} generated header\n${content}`, target) },
    },
    {
      ...base,
      name: `${name}: the user changed the edited lines after the read`,
      before: [{ outside: applied(content, { old: target.old, new: `${target.old} ${note}` }) }],
      call: edit(target),
      intended: { refusal: 'File modified' },
    },
    {
      ...base,
      name: `${name}: the user rewrote the first line the edit replaces after the read`,
      before: [
        {
          outside: applied(content, {
            old: target.old,
            new: target.old.replace('\n', ` ${note}\n`),
          }),
        },
      ],
      call: edit(target),
      intended: { refusal: 'File modified' },
    },
    {
      ...base,
      name: `${name}: new elides the lines it replaces`,
      call: edit({ old: target.old, new: `${target.new.split('\n')[0]}\n${lazyLine}` }),
      intended: { refusal: 'Elided content' },
    },
    {
      ...base,
      name: `${name}: a lazy overwrite`,
      call: {
        tool: 'WriteFile',
        content: `${content.split('\n').slice(0, 2).join('\n')}\n${sample.comment} ... rest of the file unchanged ...\n`,
      },
      intended: { refusal: 'Elided content' },
    },
    {
      ...base,
      name: `${name}: old too short to be unique`,
      call: edit({ old: sample.ambiguous, new: `${sample.ambiguous}x` }),
      intended: { refusal: 'Ambiguous match' },
    },
    {
      ...base,
      name: `${name}: old made up`,
      call: edit({ old: sample.invented, new: target.new }),
      intended: { refusal: 'No match' },
    },
  ];
}

/** Slips of prose and settings files: curly quotes, CRLF line endings, an elision comment the file already had. */
const OTHER_CASES: SlipCase[] = [
  ...[
    [
      'The tool\'s "safe mode" keeps your files intact.',
      'The tool\'s "safe mode" never deletes files.',
      'The tool’s “safe mode” never deletes files.',
    ],
    [
      'Run it with "--dry-run" first.',
      'Run it with "--dry-run" before "--apply".',
      'Run it with “--dry-run” before “--apply”.',
    ],
    ["It's safe to stop it.", "It's safe to stop it at any time.", 'It’s safe to stop it at any time.'],
    [
      'Read the "Limits" page.',
      'Read the "Limits" and "Errors" pages.',
      'Read the “Limits” and “Errors” pages.',
    ],
  ].map(([old, replacement, written], index): SlipCase => {
    const content =
      '# Guide\n\nThe tool’s “safe mode” keeps your files intact.\nRun it with “--dry-run” first.\nIt’s safe to stop it.\nRead the “Limits” page.\n';
    const curlyOld = (old ?? '').replace(/"([^"]*)"/g, '“$1”').replace(/'/g, '’');
    return {
      name: `guide.md: straight quotes for curly ones (${index + 1})`,
      file: `guide-${index + 1}.md`,
      content,
      call: edit({ old: old ?? '', new: replacement ?? '' }),
      intended: { file: content.replace(curlyOld, written ?? '') },
    };
  }),
  ...[
    ['[server]\nhost = localhost', '[server]\nhost = example.org'],
    ['host = localhost\nport = 80', 'host = 0.0.0.0\nport = 80'],
    ['[log]\nlevel = info', '[log]\nlevel = debug\nfile = app.log'],
    ['@echo off\r\nset PORT=80', '@echo off\r\nset PORT=8080'],
  ].map(([old, replacement], index): SlipCase => {
    const isBatch = index === 3;
    const content = isBatch
      ? '@echo off\r\nset PORT=80\r\nstart server.exe %PORT%\r\n'
      : '[server]\r\nhost = localhost\r\nport = 80\r\n\r\n[log]\r\nlevel = info\r\n';
    const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
    return {
      name: `${isBatch ? 'run.bat' : 'app.ini'}: LF strings for a CRLF file (${index + 1})`,
      file: isBatch ? 'run.bat' : `app-${index + 1}.ini`,
      content,
      call: edit({ old: old ?? '', new: replacement ?? '' }),
      intended: { file: content.replace(crlf(old ?? ''), crlf(replacement ?? '')) },
    };
  }),
  ...[
    { old: '  return 1;', new: '  return 2;' },
    { old: 'function a() {', new: 'function first() {' },
    {
      old: '  // ... rest of the code unchanged ...\n  return 1;',
      new: '  return 1;\n  // ... rest of the code unchanged ...',
    },
    { old: '  return 1;\n}', new: '  return 1;\n}\n\nfunction b() {\n  return 2;\n}' },
  ].map((change, index): SlipCase => {
    const content = 'function a() {\n  // ... rest of the code unchanged ...\n  return 1;\n}\n';
    return {
      name: `template.js: a file that already had an elision comment (${index + 1})`,
      file: `template-${index + 1}.js`,
      content,
      call: edit(change),
      intended: { file: content.replace(change.old, change.new) },
    };
  }),
];

/** The whole corpus: 17 slips for each of the 8 language samples, then 12 of prose and settings files. */
export const SLIP_CASES: readonly SlipCase[] = [...SLIP_SAMPLES.flatMap(casesOf), ...OTHER_CASES];
