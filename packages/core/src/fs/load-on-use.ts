import type * as Chardet from 'chardet';
import type * as Diff from 'diff';
import type * as IconvLite from 'iconv-lite';
import type * as NodeAsyncHooks from 'node:async_hooks';
import type * as NodeBuffer from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';
import type { createRequire } from 'node:module';
import type * as NodeOs from 'node:os';
import type * as NodeTimers from 'node:timers/promises';
import type * as NodeUrl from 'node:url';
import type * as NodeUtil from 'node:util';
import type * as WorkerThreads from 'node:worker_threads';
import type Ignore from 'ignore';
import type Picomatch from 'picomatch';

// Dependencies that most calls never need, loaded on their first use instead of at import: iconv-lite and chardet
// (legacy encodings) and diff (diff blocks, line-ending repair) were about 50 ms of CPU in every process importing
// core, a Grep or a Glob that never decodes nor diffs included (measured with `pnpm bench`). Node's module cache
// loads each once; a later call is a cache lookup.
// The require function itself is made on each load, not at import: making the first one costs about half a
// millisecond of every start, for calls that mostly never load any of these (a later one costs a few microseconds).
function requireFromCore(id: string): unknown {
  return nodeModule().createRequire(import.meta.url)(id);
}

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
 * ignore (the rules of ignore files), loaded on first use: a call that meets no ignore file (a read or an edit of a
 * file) never needs it; bundled into core, it was evaluated at every start (about 1 % of a cold ReadFile's CPU).
 * Required, not imported: Node then never sets up its CommonJS export scanner for it.
 */
export function ignore(): typeof Ignore {
  return requireFromCore('ignore') as typeof Ignore;
}

/**
 * picomatch, loaded on first use: only a host's globs need it (deny globs, permission rules, extra sensitive
 * patterns); bundled, it was evaluated at every start of a process importing core (about 2 ms of CPU).
 */
export function picomatch(): typeof Picomatch {
  return requireFromCore('picomatch') as typeof Picomatch;
}

// Node's own modules that a first call of most tools never needs, or needs only when it hashes, locks or renders a
// notebook. Imported statically from an ES module, `node:crypto` also builds its ES facade, which reads every export
// and so loads WebCrypto; with `node:worker_threads` and `node:util` that was about 10 ms of CPU at every start of a
// process importing core (`pnpm bench coldStart`). `process.getBuiltinModule` returns the CommonJS module alone.

/**
 * `node:async_hooks`, loaded on first use: only a call that collects its changes' sections needs its
 * AsyncLocalStorage (a read-only tool never does).
 */
export function nodeAsyncHooks(): typeof NodeAsyncHooks {
  return process.getBuiltinModule('node:async_hooks');
}

/** `node:buffer`, loaded on first use (its `isAscii` and `isUtf8` checks; `Buffer` itself is a global). */
export function nodeBuffer(): typeof NodeBuffer {
  return process.getBuiltinModule('node:buffer');
}

/** `node:crypto`, loaded on first use. */
export function nodeCrypto(): typeof NodeCrypto {
  return process.getBuiltinModule('node:crypto');
}

/** `node:module`, loaded on first use (a require function is only wanted to load one of the modules above). */
export function nodeModule(): { createRequire: typeof createRequire } {
  return process.getBuiltinModule('node:module');
}

/** `node:os`, loaded on first use (the home directory, errno numbers). */
export function nodeOs(): typeof NodeOs {
  return process.getBuiltinModule('node:os');
}

/** `node:timers/promises`, loaded on first use: only a wait (a held lock, a shortage of descriptors) needs it. */
export function nodeTimers(): typeof NodeTimers {
  return process.getBuiltinModule('node:timers/promises');
}

/** `node:url`, loaded on first use: only a module loaded by URL (file-type, micromatch) needs a file URL. */
export function nodeUrl(): typeof NodeUrl {
  return process.getBuiltinModule('node:url');
}

/** `node:util`, loaded on first use. */
export function nodeUtil(): typeof NodeUtil {
  return process.getBuiltinModule('node:util');
}

/** `node:worker_threads`, loaded on first use. */
export function workerThreads(): typeof WorkerThreads {
  return process.getBuiltinModule('node:worker_threads');
}
