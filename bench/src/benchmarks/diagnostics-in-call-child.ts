// StrReplaceFile in one warm process, on a runtime with diagnostics against one without, taking turns: each side
// edits its own copy of the same file, switching one line back and forth so that every call writes.
// Usage: diagnostics-in-call-child.ts OURS_FILE REFERENCE_FILE OLD NEW SERVERS PAIRS (SERVERS: `-` or `typescript`)
import path from 'node:path';
import { reportDetails, runPairs } from '../harness/child-report.js';
import { buildPlainStrReplace, buildStrReplaceWithDiagnostics } from '../tools.js';

const [oursFile, referenceFile, oldLine, newLine, servers, pairs] = process.argv.slice(2);
if (!oursFile || !referenceFile || !oldLine || !newLine || !servers || !pairs) {
  throw new Error('usage: diagnostics-in-call-child.ts OURS_FILE REFERENCE_FILE OLD NEW SERVERS PAIRS');
}

const { tool: ours, runtime } = await buildStrReplaceWithDiagnostics(
  path.dirname(oursFile),
  servers === 'typescript' ? ['typescript'] : [],
);
const reference = await buildPlainStrReplace(path.dirname(referenceFile));
const counts = { clean: 0, other: 0 };

/** One edit that flips the line; the diagnostics report of ours is counted (every edit is clean). */
function flipper(file: string, tool: typeof reference, count: boolean): () => Promise<void> {
  let flipped = false;
  return async () => {
    const edit = flipped ? { old: newLine!, new: oldLine! } : { old: oldLine!, new: newLine! };
    flipped = !flipped;
    const result = await tool.call({ path: file, edit });
    if (result.isError) throw new Error(result.message);
    if (count) {
      const status = (result.extras?.diagnostics as { status?: string } | undefined)?.status;
      if (status === 'clean') counts.clean += 1;
      else counts.other += 1;
    }
  };
}

await runPairs(Number(pairs), flipper(oursFile, ours, true), flipper(referenceFile, reference, false));
reportDetails(counts);
await runtime.close();
