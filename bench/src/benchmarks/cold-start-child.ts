// Child side of the cold-start benchmark: import the tool (timed), then read a small file once through it.
// Usage: cold-start-child.ts FILE
import path from 'node:path';
import { measureInChild } from '../harness/child-report.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-child.ts FILE');

await measureInChild(async () => {
  const started = performance.now();
  const [{ createRuntime, yoloApproval }, { ReadFile }] = await Promise.all([
    import('@kimi-tools/core'),
    import('@kimi-tools/read'),
  ]);
  const imported = performance.now();
  const tool = new ReadFile(createRuntime({ workDir: path.dirname(file), approval: yoloApproval() }));
  const result = await tool.call({ path: path.basename(file) });
  if (result.isError) throw new Error(`ReadFile failed: ${result.message}`);
  return { importMs: imported - started, readMs: performance.now() - imported };
});
