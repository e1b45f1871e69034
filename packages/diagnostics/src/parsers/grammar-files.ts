import { createRequire } from 'node:module';

/** The languages checked by a tree-sitter grammar, and the grammar file of each in `tree-sitter-wasms`. */
export const GRAMMARS = {
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  css: 'css',
  html: 'html',
} as const;

/** A language a tree-sitter grammar checks. */
export type GrammarLanguage = keyof typeof GRAMMARS;

/** The absolute path of a language's grammar (WebAssembly), as installed with the package. */
export function grammarFile(language: GrammarLanguage): string {
  // The CommonJS build has no `import.meta.url`; the ESM one has no `__filename`.
  const require = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
  return require.resolve(`tree-sitter-wasms/out/tree-sitter-${GRAMMARS[language]}.wasm`);
}
