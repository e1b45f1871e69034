import { createToolSet } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { agentScenario, test } from '@kimi-tools/test-kit';

/** The test kit's workspace with the scenario's files, and its three tools on the workspace's runtime. */
export const agentTest = test
  .extend('files', async ({ workspace }) => {
    await workspace.writeAll(agentScenario.files);
    return workspace;
  })
  .extend('tools', ({ files: _files, runtime }) =>
    createToolSet([
      new ReadFile(runtime),
      new StrReplaceFile(runtime),
      new ReadMediaFile(runtime, { capabilities: ['image_in'] }),
    ]),
  );
