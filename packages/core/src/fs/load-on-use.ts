import { createRequire } from 'node:module';
import type * as Chardet from 'chardet';
import type * as Diff from 'diff';
import type * as IconvLite from 'iconv-lite';

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
