import path from 'node:path';
import type { DirEntry, FileSystem } from '../fs/file-system.js';
import type { HiddenPathTest } from '../permissions/denied-by-rule.js';
import { isWithinDirectory } from './containment.js';
import { boundedEditDistance } from './edit-distance.js';

/** At most this many suggestions follow "Did you mean:". */
const MAX_SUGGESTIONS = 3;

/** A huge directory is only sampled this far, so a typo never turns into a long scan. */
const MAX_ENTRIES_SCANNED = 5000;

function stemOf(name: string): string {
  const extension = path.extname(name);
  return extension ? name.slice(0, -extension.length) : name;
}

/**
 * How close `candidate` is to the wanted name; lower is better, undefined means "not similar".
 * 0: same name ignoring case. 1: same stem, other or no extension (`app.ts` for `app.js`, `README` for `README.md`).
 * 2+d: case-insensitive edit distance d (transpositions count once) of at most a quarter of the longer name, min 1, max 3.
 */
function similarity(wanted: string, candidate: string): number | undefined {
  const a = wanted.toLowerCase();
  const b = candidate.toLowerCase();
  if (a === b) return 0;
  const stemA = stemOf(a);
  const stemB = stemOf(b);
  if (stemA && (stemA === stemB || stemA === b || a === stemB)) return 1;
  const limit = Math.min(3, Math.max(1, Math.floor(Math.max(a.length, b.length) / 4)));
  const distance = boundedEditDistance(a, b, limit);
  return distance <= limit ? 2 + distance : undefined;
}

async function isFileEntry(fs: FileSystem, directory: string, entry: DirEntry) {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await fs.stat(path.join(directory, entry.name))).isFile();
  } catch {
    return false;
  }
}

/**
 * Up to 3 existing files on `fs` in the same directory as the missing `absolutePath` whose names are similar (see
 * `similarity` for the rules), best first, ties by name, none that `hidden` leaves out (the tool's listing filter:
 * naming a file a rule hides would tell the model it exists). Paths are relative to `workDir` when inside it, else
 * absolute. Never throws: an unreadable or missing directory gives `[]`.
 */
export async function suggestSimilarFiles(
  fs: FileSystem,
  absolutePath: string,
  workDir: string,
  hidden?: HiddenPathTest,
): Promise<string[]> {
  const directory = path.dirname(absolutePath);
  const wanted = path.basename(absolutePath);
  const scored: { name: string; score: number }[] = [];
  try {
    const entries = await fs.readdir(directory);
    for (const entry of entries.slice(0, MAX_ENTRIES_SCANNED)) {
      if (entry.name === wanted) continue;
      const score = similarity(wanted, entry.name);
      if (score === undefined || hidden?.(path.join(directory, entry.name))) continue;
      if (!(await isFileEntry(fs, directory, entry))) continue;
      scored.push({ name: entry.name, score });
    }
  } catch {
    return [];
  }
  scored.sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return scored.slice(0, MAX_SUGGESTIONS).map(({ name }) => {
    const candidate = path.join(directory, name);
    return isWithinDirectory(candidate, workDir) ? path.relative(workDir, candidate) : candidate;
  });
}
