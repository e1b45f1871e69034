import { createRequire } from 'node:module';
import type * as Chardet from 'chardet';
import type * as Diff from 'diff';
import type * as IconvLite from 'iconv-lite';
import type Picomatch from 'picomatch';

// Dependencies that most calls never need, loaded on their first use instead of at import: iconv-lite and chardet
// (legacy encodings) and diff (diff blocks, line-ending repair) were about 50 ms of CPU in every process importing
// core, a Grep or a Glob that never decodes nor diffs included (measured with `pnpm bench`). Node's module cache
// loads each once; a later call is a cache lookup.
const requireFromCore = createRequire(import.meta.url);

/** iconv-lite, loaded on first use. */
export function iconvLite(): typeof IconvLite {
  return requireFromCore('iconv-lite') as typeof IconvLite;
}

/** chardet, loaded on first use. */
export function chardet(): typeof Chardet {
  return requireFromCore('chardet') as typeof Chardet;
}

/** jsdiff, loaded on first use. */
export function jsdiff(): typeof Diff {
  return requireFromCore('diff') as typeof Diff;
}

/**
 * picomatch, loaded on first use through `require`. Every tool compiles globs (the sensitive-file table), so this is
 * not about skipping it: an ES `import` of a CommonJS package makes Node scan its source for export names with
 * cjs-module-lexer, whose set-up cost about 10 ms of wall time and 5 MB of RSS in every process importing core
 * (`pnpm bench coldStart`); `require` does not.
 */
export function picomatch(): typeof Picomatch {
  return requireFromCore('picomatch') as typeof Picomatch;
}
