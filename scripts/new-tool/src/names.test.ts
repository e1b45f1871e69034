import { describe, expect, test } from 'vitest';
import { deriveNames, kebabCase, pascalCase } from './names.js';
import { Refusal } from './refusal.js';

describe('deriveNames', () => {
  test('derives every name from the package name', () => {
    expect(deriveNames({ name: 'line-count' })).toEqual({
      name: 'line-count',
      packageName: '@kimi-tools/line-count',
      ClassName: 'LineCount',
      toolName: 'LineCount',
      fileName: 'line-count',
      docsPage: 'line-count.md',
    });
  });

  test('takes the class name from --tool-name: notebook --tool-name NotebookEdit', () => {
    expect(deriveNames({ name: 'notebook', toolName: 'NotebookEdit' })).toEqual({
      name: 'notebook',
      packageName: '@kimi-tools/notebook',
      ClassName: 'NotebookEdit',
      toolName: 'NotebookEdit',
      fileName: 'notebook-edit',
      docsPage: 'notebook-edit.md',
    });
    expect(deriveNames({ name: 'grep2', toolName: 'grep_files' })).toMatchObject({
      ClassName: 'GrepFiles',
      toolName: 'grep_files',
      docsPage: 'grep-files.md',
    });
  });

  test('keeps both overrides as given', () => {
    expect(deriveNames({ name: 'facts', className: 'FileFacts', toolName: 'Stat' })).toMatchObject({
      ClassName: 'FileFacts',
      toolName: 'Stat',
      fileName: 'file-facts',
      docsPage: 'stat.md',
    });
  });

  test.each([
    ['', 'Invalid package name ""'],
    ['Line-Count', 'Invalid package name "Line-Count"'],
    ['line--count', 'Invalid package name "line--count"'],
    ['-line', 'Invalid package name "-line"'],
    ['line-', 'Invalid package name "line-"'],
    ['2line', 'Invalid package name "2line"'],
    ['../core', 'Invalid package name "../core"'],
    ['@kimi-tools/x', 'Invalid package name "@kimi-tools/x"'],
    ['a'.repeat(65), `Invalid package name "${'a'.repeat(65)}"`],
  ])('refuses the package name %j', (name, refusal) => {
    expect(() => deriveNames({ name })).toThrow(Refusal);
    expect(() => deriveNames({ name })).toThrow(refusal);
  });

  test('refuses an invalid class or tool name, saying which', () => {
    expect(() => deriveNames({ name: 'x', className: 'lineCount' })).toThrow(
      'Invalid class name "lineCount": use PascalCase (a capital letter, then letters and digits, at most 64 ' +
        'characters), e.g. LineCount.',
    );
    expect(() => deriveNames({ name: 'x', className: 'Line_Count' })).toThrow(
      'Invalid class name "Line_Count"',
    );
    expect(() => deriveNames({ name: 'x', toolName: 'line count' })).toThrow(
      'Invalid tool name "line count": start with a letter, then letters, digits, "_" or "-", at most 64 ' +
        'characters, e.g. LineCount.',
    );
    expect(() => deriveNames({ name: 'x', toolName: '_x', className: 'X' })).toThrow(
      'Invalid tool name "_x"',
    );
  });
});

describe('case conversions', () => {
  test('pascalCase and kebabCase', () => {
    expect(pascalCase('read-media-file')).toBe('ReadMediaFile');
    expect(pascalCase('x2-y')).toBe('X2Y');
    expect(kebabCase('ReadMediaFile')).toBe('read-media-file');
    expect(kebabCase('HTTPGet')).toBe('http-get');
    expect(kebabCase('grep_files')).toBe('grep-files');
  });
});
