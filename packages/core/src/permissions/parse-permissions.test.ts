import { describe, expect, it } from 'vitest';
import { parsePermissions } from './parse-permissions.js';

describe('parsePermissions', () => {
  it('gives one rule per line, as written, leaving out blank lines and # comments', () => {
    const text = [
      '# edits under src/ never ask',
      'allow Edit(src/**)',
      '',
      '   deny Edit(**/*.lock)   ',
      '  # indented comment',
      'ask WriteFile(.github/**, docs/*.md)',
    ].join('\n');
    expect(parsePermissions(text)).toEqual([
      'allow Edit(src/**)',
      'deny Edit(**/*.lock)',
      'ask WriteFile(.github/**, docs/*.md)',
    ]);
  });

  it('reads CRLF line ends, a byte order mark and an empty file', () => {
    expect(parsePermissions('\uFEFFallow Edit(src/**)\r\ndeny Read(secrets)\r\n')).toEqual([
      'allow Edit(src/**)',
      'deny Read(secrets)',
    ]);
    expect(parsePermissions('')).toEqual([]);
  });

  it('throws at the first invalid rule, with its line number', () => {
    const text = '# rules\nallow Edit(src/**)\n\nallow Edit()\ndeny Nothing(\n';
    expect(() => parsePermissions(text)).toThrow(
      new Error(
        'line 4: invalid permission rule `allow Edit()`: the parentheses hold no glob: leave them out to match every path.',
      ),
    );
    expect(() => parsePermissions('allow Edit(src/**)\rdeny Edit(x)')).toThrow(
      'line 1: invalid permission rule `"allow Edit(src/**)\\rdeny Edit(x)"`: it holds a control character.',
    );
    expect(() => parsePermissions('allow Edit(src/**) # trailing words are no comment')).toThrow(
      'line 1: invalid permission rule `allow Edit(src/**) # trailing words are no comment`: write it as allow, ask or deny, then a tool or group, then globs in parentheses, e.g. `allow Edit(src/**)`.',
    );
  });
});
