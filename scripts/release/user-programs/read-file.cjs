// A user of @kimi-tools/read alone, in a CommonJS module: reads notes.txt in the current directory.
const { createRuntime, yoloApproval } = require('@kimi-tools/core');
const { ReadFile } = require('@kimi-tools/read');

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
new ReadFile(runtime).call({ path: 'notes.txt' }).then(({ isError, output, message }) => {
  console.log(JSON.stringify({ isError, output, message }));
});
