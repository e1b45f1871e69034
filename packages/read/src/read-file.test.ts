import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ToolRuntime } from '@kimi-tools/core';
import { decodeText, encodeText, hashBytes, stampOfStats } from '@kimi-tools/core/toolkit';
import { backendHas, pngBytes, test } from '@kimi-tools/test-kit';
import { afterEach, describe, expect } from 'vitest';
import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES, ReadFile } from './index.js';
import { LINE_INDEXES } from './line-index.js';

/** The kit's test, with `tool`: a ReadFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

const numbered = (count: number, text: (n: number) => string = (n) => `line ${n}`) =>
  Array.from({ length: count }, (_, index) => `${text(index + 1)}\n`).join('');

function row(number: number, text: string, terminated = true): string {
  return `${String(number).padStart(6)}\t${text}${terminated ? '\n' : ''}`;
}

describe('ReadFile: reading forward', () => {
  it('shows numbered lines and the exact message', async ({ workspace, tool }) => {
    await workspace.write('a.txt', 'one\ntwo\nthree\nfour\nfive\n');
    const result = await tool.call({ path: 'a.txt' });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(
      row(1, 'one') + row(2, 'two') + row(3, 'three') + row(4, 'four') + row(5, 'five'),
    );
    expect(result.message).toBe(
      '5 lines read from file starting from line 1. Total lines in file: 5. End of file reached.',
    );
    expect(result.brief).toBe('');
    expect(result.display).toEqual([]);
  });

  it('reads an empty file', async ({ workspace, tool }) => {
    await workspace.write('empty.txt', '');
    const result = await tool.call({ path: 'empty.txt' });
    expect(result.output).toBe('');
    expect(result.message).toBe('No lines read from file. Total lines in file: 0. End of file reached.');
  });

  it('honours line_offset and n_lines, without an end-of-file note when n_lines lines were shown', async ({
    workspace,
    tool,
  }) => {
    await workspace.write('a.txt', numbered(10));
    const result = await tool.call({ path: 'a.txt', line_offset: 3, n_lines: 2 });
    expect(result.output).toBe(row(3, 'line 3') + row(4, 'line 4'));
    expect(result.message).toBe('2 lines read from file starting from line 3. Total lines in file: 10.');
  });

  it('accepts numeric strings for integer arguments', async ({ workspace, tool }) => {
    await workspace.write('a.txt', numbered(10));
    const result = await tool.call({ path: 'a.txt', line_offset: '9', n_lines: '5' });
    expect(result.message).toBe(
      '2 lines read from file starting from line 9. Total lines in file: 10. End of file reached.',
    );
  });

  it('reads nothing from an offset past the end', async ({ workspace, tool }) => {
    await workspace.write('a.txt', numbered(3));
    const result = await tool.call({ path: 'a.txt', line_offset: 10 });
    expect(result.output).toBe('');
    expect(result.message).toBe('No lines read from file. Total lines in file: 3. End of file reached.');
  });

  it('splits CRLF and lone CR and never shows \\r', async ({ workspace, tool }) => {
    await workspace.write('mixed.txt', 'a\r\nb\rc\n\r\nd');
    const result = await tool.call({ path: 'mixed.txt' });
    expect(result.output).toBe(row(1, 'a') + row(2, 'b') + row(3, 'c') + row(4, '') + row(5, 'd', false));
    expect(result.message).toBe(
      '5 lines read from file starting from line 1. Total lines in file: 5. End of file reached.',
    );
  });

  it('ends the output without \\n when the last line has no break', async ({ workspace, tool }) => {
    await workspace.write('a.txt', 'x\ny');
    const result = await tool.call({ path: 'a.txt' });
    expect(result.output).toBe(row(1, 'x') + row(2, 'y', false));
    expect(result.message).toBe(
      '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
    );
  });

  it('stops at 1000 lines', async ({ workspace, tool }) => {
    await workspace.write('long.txt', numbered(1500));
    const result = await tool.call({ path: 'long.txt', n_lines: 5000 });
    expect((result.output as string).split('\n').length - 1).toBe(MAX_LINES);
    expect(result.message).toBe(
      '1000 lines read from file starting from line 1. Total lines in file: 1500. Max 1000 lines reached.',
    );
  });

  it('stops once 102400 bytes are reached, keeping the crossing line', async ({ workspace, tool }) => {
    // Each line is 1999 characters + break = 2000 bytes: the 52nd line crosses 102400.
    await workspace.write(
      'wide.txt',
      numbered(100, () => 'x'.repeat(1999)),
    );
    const result = await tool.call({ path: 'wide.txt' });
    expect(result.message).toBe(
      '52 lines read from file starting from line 1. Total lines in file: 100. Max 102400 bytes reached.',
    );
    expect(MAX_BYTES).toBe(102400);
  });

  it('truncates long lines to 2000 code points including the break, and lists them', async ({
    workspace,
    tool,
  }) => {
    const fits = 'a'.repeat(1999);
    const over = 'b'.repeat(2000);
    const lastFits = 'c'.repeat(2000);
    await workspace.write('t.txt', `${fits}\n${over}\nshort\n${lastFits}`);
    const result = await tool.call({ path: 't.txt' });
    expect(result.output).toBe(
      row(1, fits) + row(2, 'b'.repeat(1996) + '...') + row(3, 'short') + row(4, lastFits, false),
    );
    expect(result.message).toBe(
      '4 lines read from file starting from line 1. Total lines in file: 4. End of file reached. Lines [2] were truncated.',
    );
    expect(MAX_LINE_LENGTH).toBe(2000);
  });

  it('cuts an unterminated last line leaving room for the ellipsis only', async ({ workspace, tool }) => {
    await workspace.write('t.txt', `x\n${'d'.repeat(2001)}`);
    const result = await tool.call({ path: 't.txt' });
    expect(result.output).toBe(row(1, 'x') + row(2, 'd'.repeat(1997) + '...', false));
    expect(result.message).toBe(
      '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached. Lines [2] were truncated.',
    );
  });

  it('counts an emoji or a CJK character as one code point at the boundary', async ({ workspace, tool }) => {
    const emojiFits = '😀'.repeat(1999);
    const emojiOver = '😀'.repeat(2000);
    const cjkOver = '中'.repeat(2500);
    await workspace.write('u.txt', `${emojiFits}\n${emojiOver}\n${cjkOver}\n`);
    const result = await tool.call({ path: 'u.txt' });
    expect(result.output).toBe(
      row(1, emojiFits) + row(2, '😀'.repeat(1996) + '...') + row(3, '中'.repeat(1996) + '...'),
    );
    expect(result.message).toBe(
      '3 lines read from file starting from line 1. Total lines in file: 3. End of file reached. Lines [2, 3] were truncated.',
    );
  });

  it('cuts a line far longer than any read buffer without holding it whole', async ({ workspace, tool }) => {
    await workspace.write('huge-line.txt', `${'z'.repeat(3_000_000)}\nafter\n`);
    const result = await tool.call({ path: 'huge-line.txt' });
    expect(result.output).toBe(row(1, 'z'.repeat(1996) + '...') + row(2, 'after'));
    expect(result.message).toBe(
      '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached. Lines [1] were truncated.',
    );
  });
});

describe('ReadFile: tail mode', () => {
  it('reads the last lines with their absolute numbers', async ({ workspace, tool }) => {
    await workspace.write('a.txt', numbered(5));
    const result = await tool.call({ path: 'a.txt', line_offset: -2 });
    expect(result.output).toBe(row(4, 'line 4') + row(5, 'line 5'));
    expect(result.message).toBe(
      '2 lines read from file starting from line 4. Total lines in file: 5. End of file reached.',
    );
  });

  it('shows the first n_lines of the window', async ({ workspace, tool }) => {
    await workspace.write('a.txt', numbered(10));
    const result = await tool.call({ path: 'a.txt', line_offset: -5, n_lines: 2 });
    expect(result.output).toBe(row(6, 'line 6') + row(7, 'line 7'));
    expect(result.message).toBe('2 lines read from file starting from line 6. Total lines in file: 10.');
  });

  it('reads the whole file when more lines are asked for than exist', async ({ workspace, tool }) => {
    await workspace.write('a.txt', 'p\nq\nr');
    const result = await tool.call({ path: 'a.txt', line_offset: -1000 });
    expect(result.output).toBe(row(1, 'p') + row(2, 'q') + row(3, 'r', false));
    expect(result.message).toBe(
      '3 lines read from file starting from line 1. Total lines in file: 3. End of file reached.',
    );
  });

  it('reads nothing from an empty file', async ({ workspace, tool }) => {
    await workspace.write('empty.txt', '');
    const result = await tool.call({ path: 'empty.txt', line_offset: -1 });
    expect(result.output).toBe('');
    expect(result.message).toBe('No lines read from file. Total lines in file: 0. End of file reached.');
  });

  it('keeps only the newest lines that fit in 102400 bytes', async ({ workspace, tool }) => {
    // 1000 lines of 199 characters + break = 200 bytes each: 512 of them make exactly 102400 bytes.
    await workspace.write(
      'wide.txt',
      numbered(1000, (n) => `${String(n).padStart(4, '0')}${'w'.repeat(195)}`),
    );
    const result = await tool.call({ path: 'wide.txt', line_offset: -1000 });
    const output = result.output as string;
    expect(output.startsWith(row(489, `0489${'w'.repeat(195)}`))).toBe(true);
    expect(output.endsWith(row(1000, `1000${'w'.repeat(195)}`))).toBe(true);
    expect(result.message).toBe(
      '512 lines read from file starting from line 489. Total lines in file: 1000. Max 102400 bytes reached.',
    );
  });

  it('truncates a long line inside the window and names it', async ({ workspace, tool }) => {
    await workspace.write('t.txt', `a\n${'y'.repeat(5000)}\r\nc\r\n`);
    const result = await tool.call({ path: 't.txt', line_offset: -2 });
    expect(result.output).toBe(row(2, 'y'.repeat(1996) + '...') + row(3, 'c'));
    expect(result.message).toBe(
      '2 lines read from file starting from line 2. Total lines in file: 3. End of file reached. Lines [2] were truncated.',
    );
  });

  it('reads the tail of a file large enough to be indexed, twice', async ({ workspace, tool }) => {
    await workspace.write('big.txt', numbered(300_000));
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await tool.call({ path: 'big.txt', line_offset: -3 });
      expect(result.output).toBe(
        row(299_998, 'line 299998') + row(299_999, 'line 299999') + row(300_000, 'line 300000'),
      );
      expect(result.message).toBe(
        '3 lines read from file starting from line 299998. Total lines in file: 300000. End of file reached.',
      );
    }
  });
});

describe('ReadFile: encodings', () => {
  it('reads UTF-16 LE and BE files with a BOM', async ({ workspace, tool }) => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld 😀\n', 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    await workspace.write('le.txt', le);
    await workspace.write('be.txt', be);
    for (const name of ['le.txt', 'be.txt']) {
      const result = await tool.call({ path: name });
      expect(result.output).toBe(row(1, 'héllo') + row(2, 'wörld 😀'));
      expect(result.message).toBe(
        '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
      );
    }
  });

  it('reads a GBK file', async ({ workspace, tool }) => {
    const text = '这是一个用简体中文写的文件。\r\n第二行也是中文，没有问题。\r\n';
    await workspace.write('gbk.txt', encodeText(text, { encoding: 'gbk', bom: false }));
    const result = await tool.call({ path: 'gbk.txt' });
    expect(result.output).toBe(row(1, '这是一个用简体中文写的文件。') + row(2, '第二行也是中文，没有问题。'));
  });

  it('reads a file holding only its BOM as empty, in UTF-8, UTF-16 LE and UTF-16 BE', async ({
    workspace,
    tool,
  }) => {
    const boms = { 'utf8.txt': [0xef, 0xbb, 0xbf], 'le.txt': [0xff, 0xfe], 'be.txt': [0xfe, 0xff] };
    for (const [name, bom] of Object.entries(boms)) {
      await workspace.write(name, Uint8Array.from(bom));
      for (const line_offset of [1, -1]) {
        const result = await tool.call({ path: name, line_offset });
        expect([name, result.isError, result.output]).toEqual([name, false, '']);
        expect(result.message).toBe('No lines read from file. Total lines in file: 0. End of file reached.');
      }
    }
  });

  it('skips a UTF-8 BOM', async ({ workspace, tool }) => {
    await workspace.write('bom.txt', '\ufeffhello\n');
    const result = await tool.call({ path: 'bom.txt' });
    expect(result.output).toBe(row(1, 'hello'));
  });
});

describe('ReadFile and the write tools decode a file the same way', () => {
  it('a UTF-8 file over 1 MiB with a stray byte past 64 KiB reads as the write tools decode it', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const filler = 'plain ascii line\n'.repeat((80 << 10) / 17);
    const tail = 'x'.repeat(1 << 20) + '\n';
    const content = Buffer.concat([
      Buffer.from('Café\n'),
      Buffer.from(filler),
      Buffer.from([0xe9, 0x0a]),
      Buffer.from(tail),
    ]);
    await workspace.write('stray.txt', content);
    const decoded = decodeText(content);
    expect(decoded.ok).toBe(true);
    const expected = decoded.ok ? (decoded.decoded.text.split('\n')[0] ?? '') : '';
    const result = await tool.call({ path: 'stray.txt', n_lines: 1 });
    expect(result.output).toBe(row(1, expected));
    expect(runtime.fileState.get(workspace.at('stray.txt'))?.complete).toBe(false);
  });

  it('keeps a big file UTF-8 when its characters straddle the 1 MiB reads', async ({ workspace, tool }) => {
    // Each character starts a byte or two before a read boundary (1 MiB, 2 MiB, 3 MiB) and ends after it.
    const mib = 1 << 20;
    const pieces: Buffer[] = [];
    let size = 0;
    for (const [boundary, char] of [
      [mib, 'é'],
      [2 * mib, '€'],
      [3 * mib, '😀'],
    ] as const) {
      const filler = 'a'.repeat(boundary - 1 - size - 1) + '\n';
      pieces.push(Buffer.from(filler), Buffer.from(`${char}\n`));
      size += filler.length + Buffer.byteLength(char) + 1;
    }
    await workspace.write('straddle.txt', Buffer.concat(pieces));
    const result = await tool.call({ path: 'straddle.txt', line_offset: 2, n_lines: 1 });
    expect(result.output).toBe(row(2, 'é'));
    expect((await tool.call({ path: 'straddle.txt', line_offset: 6, n_lines: 1 })).output).toBe(row(6, '😀'));
  });

  it('reads a big file whose last character is cut off as the write tools decode it', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const content = Buffer.concat([Buffer.from('ok\n'.repeat(1 << 19)), Buffer.from([0xe2, 0x82])]);
    await workspace.write('cut.txt', content);
    const decoded = decodeText(content);
    expect(decoded.ok).toBe(true);
    const lastLine = decoded.ok ? (decoded.decoded.text.split('\n').at(-1) ?? '') : '';
    const result = await tool.call({ path: 'cut.txt', line_offset: (1 << 19) + 1 });
    expect(result.output).toBe(row((1 << 19) + 1, lastLine, false));
    expect(result.output).not.toContain('\ufffd');
    expect(runtime.slot(LINE_INDEXES).size).toBe(0);
  });
});

describe('ReadFile: refusals', () => {
  it('refuses a file with a NUL anywhere, as the write tools do: past the first MiB of a 2 MiB file too', async ({
    workspace,
    tool,
  }) => {
    const line = 'text line\n';
    const content = Buffer.from(line.repeat((2 << 20) / line.length));
    content[(1 << 20) + 12345] = 0;
    await workspace.write('late-nul.txt', content);
    for (const call of [{ line_offset: 1 }, { line_offset: -5 }, { line_offset: 150_000 }]) {
      const result = await tool.call({ path: 'late-nul.txt', ...call });
      expect([call, result.brief]).toEqual([call, 'File not readable']);
      expect(result.output).toBe('');
    }
  });

  it('shows other control characters as their Unicode control pictures, never raw', async ({
    workspace,
    tool,
  }) => {
    await workspace.write('ctl.txt', 'a\u0001b\u001b[31mred\u007f\fpage\tok\n');
    const result = await tool.call({ path: 'ctl.txt' });
    expect(result.output).toBe(row(1, 'a\u2401b\u241b[31mred\u2421\u240cpage\tok'));
  });

  it('refuses binary files', async ({ workspace, tool }) => {
    await workspace.write('data.bin', Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x41]));
    const result = await tool.call({ path: 'data.bin' });
    expect(result.isError).toBe(true);
    expect(result.message).toBe(
      '`data.bin` seems not readable. You may need to read it with proper shell commands, Python tools or MCP tools if available. If you read/operate it with Python, you MUST ensure that any third-party packages are installed in a virtual environment (venv).',
    );
    expect(result.brief).toBe('File not readable');
    expect(result.display).toEqual([{ type: 'brief', text: 'File not readable' }]);
  });

  it('refuses images and videos', async ({ workspace, tool }) => {
    const png = pngBytes();
    await workspace.write('pic.png', png);
    const image = await tool.call({ path: 'pic.png' });
    expect(image.message).toBe(
      '`pic.png` is a image file. Use other appropriate tools to read image or video files.',
    );
    expect(image.brief).toBe('Unsupported file type');
    await workspace.write(
      'clip.mp4',
      Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0]),
    );
    const video = await tool.call({ path: 'clip.mp4' });
    expect(video.message).toBe(
      '`clip.mp4` is a video file. Use other appropriate tools to read image or video files.',
    );
    expect(video.brief).toBe('Unsupported file type');
  });

  it('refuses a PDF and points to ReadMediaFile', async ({ workspace, tool }) => {
    await workspace.write('report.pdf', '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    const result = await tool.call({ path: 'report.pdf' });
    expect(result.message).toBe(
      '`report.pdf` is a PDF file. Use ReadMediaFile to read PDF files page by page.',
    );
    expect(result.brief).toBe('Unsupported file type');
  });

  it('refuses sensitive files before checking that they exist', async ({ workspace, tool }) => {
    await workspace.write('.env', 'SECRET=1\n');
    for (const name of ['.env', 'missing/.env.local', 'id_rsa']) {
      const result = await tool.call({ path: name });
      expect(result.message).toBe(
        `\`${name}\` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.`,
      );
      expect(result.brief).toBe('Sensitive file');
    }
    await workspace.write('.env.example', 'SECRET=\n');
    expect((await tool.call({ path: '.env.example' })).isError).toBe(false);
  });

  it('refuses a symlink whose target is a sensitive file', async ({ workspace, tool }) => {
    await workspace.write('.env', 'SECRET=1\n');
    await workspace.symlink('settings.txt', workspace.at('.env'));
    const result = await tool.call({ path: 'settings.txt' });
    expect(result.brief).toBe('Sensitive file');
  });

  it('reports a missing file, suggesting similar names', async ({ workspace, tool }) => {
    await workspace.write('notes.txt', 'n\n');
    const similar = await tool.call({ path: 'note.txt' });
    expect(similar.message).toBe('`note.txt` does not exist. Did you mean: notes.txt?');
    expect(similar.brief).toBe('File not found');
    const plain = await tool.call({ path: 'completely-different.md' });
    expect(plain.message).toBe('`completely-different.md` does not exist.');
    // A name longer than any file system takes (255 bytes) names no file either.
    const long = `${'n'.repeat(300)}.txt`;
    expect(await tool.call({ path: long })).toMatchObject({
      message: `\`${long}\` does not exist.`,
      brief: 'File not found',
    });
  });

  it('refuses a directory', async ({ workspace, tool }) => {
    await workspace.mkdir('dir');
    const dir = await tool.call({ path: 'dir' });
    expect(dir.message).toBe(
      '`dir` is not a file. It is a directory with no entries to show. Use the Glob tool to find files.',
    );
    expect(dir.brief).toBe('Invalid path');
  });

  it.runIf(backendHas('disk'))('refuses a FIFO without hanging', async ({ workspace, tool }) => {
    execFileSync('mkfifo', [workspace.at('pipe')]);
    const fifo = await tool.call({ path: 'pipe' });
    expect(fifo.message).toBe('`pipe` is not a file.');
    expect(fifo.brief).toBe('Invalid path');
  });

  it('refuses an empty path', async ({ tool }) => {
    const result = await tool.call({ path: '' });
    expect(result.message).toBe('File path cannot be empty.');
    expect(result.brief).toBe('Empty file path');
  });

  it('refuses a relative path outside the workspace but reads it given absolutely', async ({
    workspace,
    tool,
  }) => {
    await workspace.write(workspace.outside('o.txt'), 'out\n');
    const relative = await tool.call({ path: '../outside/o.txt' });
    expect(relative.message).toBe(
      '`../outside/o.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
    );
    expect(relative.brief).toBe('Invalid path');
    const absolute = await tool.call({ path: workspace.outside('o.txt') });
    expect(absolute.output).toBe(row(1, 'out'));
  });

  it('treats a symlink pointing outside as outside', async ({ workspace, tool }) => {
    await workspace.write(workspace.outside('target.txt'), 'secret-ish\n');
    await workspace.symlink('link.txt', workspace.outside('target.txt'));
    const result = await tool.call({ path: 'link.txt' });
    expect(result.message).toBe(
      '`link.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
    );
    const absolute = await tool.call({ path: workspace.at('link.txt') });
    expect(absolute.output).toBe(row(1, 'secret-ish'));
  });

  it('applies deny rules', async ({ workspace }) => {
    const denying = new ReadFile(workspace.runtime({ deny: ['**/private/**'] }));
    await workspace.write('private/x.txt', 'x\n');
    const result = await denying.call({ path: 'private/x.txt' });
    expect(result.message).toBe('`private/x.txt` is denied by the workspace policy.');
    expect(result.brief).toBe('Access denied');
  });

  it('turns an unexpected failure into the generic error', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'a\n');
    const exploding = {
      get: () => {
        throw new Error('index exploded');
      },
    };
    const broken = { ...runtime, slot: () => exploding } as unknown as ToolRuntime;
    const result = await new ReadFile(broken).call({ path: 'a.txt' });
    expect(result.message).toBe('Failed to read a.txt. Error: index exploded');
    expect(result.brief).toBe('Failed to read file');
  });
});

describe('ReadFile: paths with ~', () => {
  const originalHome = process.env['HOME'];
  afterEach(() => {
    process.env['HOME'] = originalHome;
  });

  it.runIf(backendHas('this-process'))('expands ~ to the home directory', async ({ workspace }) => {
    const home = path.join(workspace.root, 'home');
    await workspace.write(path.join(home, 'h.txt'), 'home sweet home\n');
    process.env['HOME'] = home;
    const homed = new ReadFile(workspace.runtime({ additionalDirs: [home] }));
    const result = await homed.call({ path: '~/h.txt' });
    expect(result.output).toBe(row(1, 'home sweet home'));
  });
});

describe('ReadFile: validation', () => {
  it('rejects line_offset 0 and below -1000, and n_lines 0', async ({ workspace, tool }) => {
    await workspace.write('a.txt', 'a\n');
    const zero = await tool.call({ path: 'a.txt', line_offset: 0 });
    expect(zero.isError).toBe(true);
    expect(zero.brief).toBe('Invalid arguments');
    expect(zero.message).toBe(
      'Error validating JSON arguments: line_offset: line_offset cannot be 0; use 1 for the first line or -1 for the last line',
    );
    const far = await tool.call({ path: 'a.txt', line_offset: -1001 });
    expect(far.message).toBe(
      'Error validating JSON arguments: line_offset: line_offset cannot be less than -1000. Use a positive line_offset with the total line count to read from a specific position.',
    );
    const none = await tool.call({ path: 'a.txt', n_lines: 0 });
    expect(none.brief).toBe('Invalid arguments');
    expect(none.message).toMatch(/^Error validating JSON arguments: n_lines: /);
    expect((await tool.call({ path: 'a.txt', line_offset: 1.5 })).brief).toBe('Invalid arguments');
    expect((await tool.call({ path: 'a.txt', line_offset: -1000 })).isError).toBe(false);
  });

  it('exposes the schema with its defaults and a description', ({ tool }) => {
    expect(tool.name).toBe('ReadFile');
    const schema = tool.parameters as {
      properties: Record<string, { type: string; default?: number; description?: string }>;
      required: string[];
    };
    expect(schema.required).toEqual(['path']);
    expect(schema.properties['line_offset']).toMatchObject({ type: 'integer', default: 1 });
    expect(schema.properties['n_lines']).toMatchObject({ type: 'integer', default: 1000, minimum: 1 });
    for (const property of Object.values(schema.properties)) expect(property.description).toBeTruthy();
    expect(tool.description).toContain('at most 1000 lines and 102400 bytes');
    expect(tool.description).not.toContain('${');
  });
});

describe('ReadFile: read state and line index', () => {
  it('records a complete read with the content hash', async ({ workspace, runtime, tool }) => {
    const content = 'alpha\nbeta\n';
    const file = await workspace.write('s.txt', content);
    await tool.call({ path: 's.txt' });
    const record = runtime.fileState.get(file);
    expect(record?.complete).toBe(true);
    expect(record?.size).toBe(Buffer.byteLength(content));
    expect(record?.hash).toBe(hashBytes(Buffer.from(content)));
    expect(await runtime.fileState.check(file)).toBe('ok');
  });

  it('records a partial read as incomplete', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('s.txt', numbered(10));
    await tool.call({ path: 's.txt', n_lines: 3 });
    expect(runtime.fileState.get(file)?.complete).toBe(false);
    await tool.call({ path: 's.txt', line_offset: -3 });
    expect(runtime.fileState.get(file)?.complete).toBe(false);
  });

  it('does not record failed reads', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('data.bin', Buffer.from([0, 1, 2, 0]));
    await tool.call({ path: 'data.bin' });
    expect(runtime.fileState.get(file)).toBeUndefined();
  });

  it('scans a file afresh on every read where its stats cannot vouch for its bytes', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('big.txt', numbered(400_000));
    const first = await tool.call({ path: 'big.txt', line_offset: 350_000, n_lines: 2 });
    expect(first.output).toBe(row(350_000, 'line 350000') + row(350_001, 'line 350001'));
    expect(first.message).toBe(
      '2 lines read from file starting from line 350000. Total lines in file: 400000.',
    );
    // Under the content-hash limit the hash decides, so no index of this version is kept for the next read.
    expect(runtime.slot(LINE_INDEXES).size).toBe(0);
    const hash = runtime.fileState.get(file)?.hash;
    expect(hash).toBe(hashBytes(Buffer.from(numbered(400_000))));
    expect(await tool.call({ path: 'big.txt', line_offset: 350_000, n_lines: 2 })).toEqual(first);
    expect(runtime.fileState.get(file)?.hash).toBe(hash);
  });

  describe.runIf(backendHas('huge-files'))('a file over the content-hash limit', () => {
    const lower = () => Buffer.alloc(70 << 20, 'abcdefghijklmnopqrstuvwxyz\n');
    const deepLine = 2_500_000;

    it('serves repeated deep reads from the index and notices a changed file', async ({
      workspace,
      runtime,
      tool,
    }) => {
      const file = await workspace.write('big.txt', lower());
      const first = await tool.call({ path: 'big.txt', line_offset: deepLine, n_lines: 2 });
      expect(first.output).toBe(
        row(deepLine, 'abcdefghijklmnopqrstuvwxyz') + row(deepLine + 1, 'abcdefghijklmnopqrstuvwxyz'),
      );
      const version = stampOfStats(await runtime.fs.stat(file));
      expect(runtime.slot(LINE_INDEXES).get(file, version)?.totalLines).toBe(Math.ceil((70 << 20) / 27));
      expect(await tool.call({ path: 'big.txt', line_offset: deepLine, n_lines: 2 })).toEqual(first);

      await workspace.write(file, Buffer.alloc(70 << 20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ\n'));
      const changed = await tool.call({ path: 'big.txt', line_offset: deepLine, n_lines: 1 });
      expect(changed.output).toBe(row(deepLine, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'));
    });

    it('reads a version its index holds in the encoding recorded there, without detecting it again', async ({
      workspace,
      runtime,
      tool,
    }) => {
      const file = await workspace.write('cafe.txt', Buffer.concat([Buffer.from('café\n'), lower()]));
      expect((await tool.call({ path: 'cafe.txt', n_lines: 1 })).output).toBe(row(1, 'café'));
      // The index of this very version says windows-1252: the read trusts it (a detection would say UTF-8).
      const version = stampOfStats(await runtime.fs.stat(file));
      runtime.slot(LINE_INDEXES).set(file, {
        version,
        totalLines: 1 + Math.ceil((70 << 20) / 27),
        checkpoints: [{ line: 1, offset: 0 }],
        encoding: { encoding: 'windows-1252', bom: false },
      });
      expect((await tool.call({ path: 'cafe.txt', n_lines: 1 })).output).toBe(row(1, 'cafÃ©'));
      // Another version is detected afresh.
      await workspace.write(file, Buffer.concat([Buffer.from('café!\n'), lower()]));
      expect((await tool.call({ path: 'cafe.txt', n_lines: 1 })).output).toBe(row(1, 'café!'));
    });
  });
});
