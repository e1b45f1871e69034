// A writer in its own process, for lock-suspension.test.ts. It changes `argv[2]` (a file in the work dir `argv[3]`)
// from its current content to that content plus `argv[4]`, through applyFileChange. Inside the file lock, just before
// writing, it prints `in-lock` and waits for a `go` line on stdin, so the parent can SIGSTOP it exactly there. It
// prints the outcome's kind (and brief when refused) as its last line.
import { createInterface } from 'node:readline';
import { yoloApproval } from '../../approval/approval.js';
import { createRuntime } from '../../runtime/runtime.js';
import type { FileSystem } from '../../fs/file-system.js';
import { FileHistory, type HistoryEntry } from '../../state/file-history.js';
import { appendThroughChange } from './append-change.js';

const [file, workDir, addition] = process.argv.slice(2) as [string, string, string];
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

/** applyFileChange saves history inside the lock, after its last check and right before the write. */
class PausingHistory extends FileHistory {
  override async save(
    files: FileSystem,
    realPath: string,
    bytes: Uint8Array | null,
  ): Promise<HistoryEntry | undefined> {
    process.stdout.write('in-lock\n');
    await lines.next();
    return super.save(files, realPath, bytes);
  }
}

const runtime = createRuntime({ workDir, approval: yoloApproval(), history: new PausingHistory() });
const outcome = await appendThroughChange(runtime, file, addition);
process.stdout.write(`${outcome.kind === 'refused' ? `refused ${outcome.result.brief}` : outcome.kind}\n`);
process.exit(0);
