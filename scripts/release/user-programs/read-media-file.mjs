// A user of @kimi-tools/media alone: hands pixel.png to a model that takes images.
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';

const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
const tool = new ReadMediaFile(runtime, { capabilities: ['image_in'] });
const { isError, output, extras } = await tool.call({ path: 'pixel.png' });
console.log(JSON.stringify({ isError, parts: output.map((part) => part.type), extras }));
