import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const CORE = fileURLToPath(new URL('../../core/dist/index.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

// A fresh process on the built package: after each step it says whether sharp (a CommonJS module, in the require
// cache) and pdf.js (which sets globalThis.pdfjsLib when it loads) have been loaded. After the first image it also
// says whether Node tracks promises (a promise continuation runs under async id 0 until promise hooks are installed,
// as the first use of an AsyncLocalStorage does): a read-only call never enters core's observer-sections context.
const SCRIPT = `
import { executionAsyncId } from 'node:async_hooks';
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const loaded = () => ({
  sharp: Object.keys(cache).some((file) => file.includes('/sharp/lib/')),
  pdfjs: globalThis.pdfjsLib !== undefined,
});
const steps = {};
const { ReadMediaFile } = await import(${JSON.stringify(BUILT)});
const { createRuntime, yoloApproval } = await import(${JSON.stringify(CORE)});
steps.imported = loaded();
const tool = new ReadMediaFile(createRuntime({ workDir: ${JSON.stringify(FIXTURES)}, approval: yoloApproval() }), {
  capabilities: ['image_in'],
});
await tool.call({ path: 'screenshot-alpha.png' });
steps.smallImage = loaded();
steps.promisesTracked = await (async () => { await null; return executionAsyncId() !== 0; })();
await tool.call({ path: 'text.pdf' });
steps.pdf = loaded();
await tool.call({ path: 'photo-exif-rotated.jpg' });
steps.turnedImage = loaded();
process.stdout.write(JSON.stringify(steps));
`;

describe('@kimi-tools/media, built', () => {
  it('loads neither sharp nor pdf.js on import: each on the first file that needs it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT]);
    expect(JSON.parse(stdout)).toEqual({
      imported: { sharp: false, pdfjs: false },
      smallImage: { sharp: false, pdfjs: false },
      promisesTracked: false,
      pdf: { sharp: false, pdfjs: true },
      turnedImage: { sharp: true, pdfjs: true },
    });
  });
});
