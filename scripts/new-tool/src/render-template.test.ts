import { describe, expect, test } from 'vitest';
import { fixedIdentifiers, renderTemplate } from './render-template.js';

describe('renderTemplate', () => {
  test('fills every placeholder, as often as it appears', () => {
    expect(renderTemplate('class {{A}} {} // {{A}} in {{b}}', { A: 'X', b: 'y' }, 't')).toBe(
      'class X {} // X in y',
    );
  });

  test('throws on an unknown placeholder, naming the template', () => {
    expect(() => renderTemplate('{{ClasName}}', { ClassName: 'X' }, 'templates/a.tmpl')).toThrow(
      'templates/a.tmpl: unknown placeholder {{ClasName}}',
    );
  });
});

describe('fixedIdentifiers', () => {
  test('lists what a template imports and declares under a fixed name', () => {
    const found = fixedIdentifiers(
      [
        "import { a, type B, c as D } from 'x';",
        "import type { E } from 'y';",
        "import template from './t.md';",
        'export const LIMIT = 1;',
        'function helper() {}',
        'export interface {{ClassName}}Options {}',
      ].join('\n'),
    );
    expect([...found].sort()).toEqual(['B', 'D', 'E', 'LIMIT', 'a', 'helper', 'template']);
  });
});
