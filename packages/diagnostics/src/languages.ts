import path from 'node:path';
import type { GrammarLanguage } from './parsers/grammar-files.js';
import type { ScriptLanguage } from './parsers/script-languages.js';

/** A language the parsers check. */
export type ParsedLanguage = 'json' | 'jsonc' | 'yaml' | 'toml' | ScriptLanguage | GrammarLanguage;

const BY_EXTENSION: Readonly<Record<string, ParsedLanguage>> = {
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'jsx',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.hpp': 'cpp',
  '.hxx': 'cpp',
  '.css': 'css',
  '.html': 'html',
  '.htm': 'html',
};

/** JSON files that editors read with comments and trailing commas allowed. */
const JSONC_NAMES =
  /^(?:tsconfig(?:\..*)?|jsconfig(?:\..*)?|\.eslintrc|devcontainer|settings|launch|tasks|extensions)\.json$/;

/** The language of a file, by its name; `undefined` when no parser checks it. */
export function languageOf(file: string): ParsedLanguage | undefined {
  const name = path.basename(file);
  const language = BY_EXTENSION[path.extname(name).toLowerCase()];
  if (language === 'json' && JSONC_NAMES.test(name)) return 'jsonc';
  return language;
}
