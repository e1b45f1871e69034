// A user of a third-party tool package made by `pnpm new-tool file-facts`: its sample tool on notes.txt.
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { FileFacts } from '@kimi-tools/file-facts';

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
const { isError, output, message } = await new FileFacts(runtime).call({ path: 'notes.txt' });
console.log(JSON.stringify({ isError, output, message }));
