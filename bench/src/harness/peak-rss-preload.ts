// Loaded with `node --import` into every Node process the bench measures, ours and the references alike. At exit it
// reports on fd 3 the process's peak RSS — VmHWM, which starts afresh at exec, so unlike getrusage's ru_maxrss it
// never includes the pages of the parent that spawned it — and its own CPU time. Without fd 3 it stays silent.
import { readFileSync, writeSync } from 'node:fs';

/** fd the harness reads reports from. */
const REPORT_FD = 3;

function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // No /proc: fall back below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

process.on('exit', () => {
  const usage = process.resourceUsage();
  const report = {
    type: 'process',
    peakRssBytes: peakRssBytes(),
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  };
  try {
    writeSync(REPORT_FD, `${JSON.stringify(report)}\n`);
  } catch {
    // Not run by the harness.
  }
});
