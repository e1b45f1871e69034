// A user of @kimi-tools/read alone, in an ES module: reads notes.txt in the current directory.
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
const { isError, output, message } = await new ReadFile(runtime).call({ path: 'notes.txt' });
console.log(JSON.stringify({ isError, output, message }));
