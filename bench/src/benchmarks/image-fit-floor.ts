// The floor under ReadMediaFile in the image-fit benchmark: a fresh process pays what any ReadMediaFile on these
// packages pays outside the media package's own work — loading @kimi-tools/core and @kimi-tools/media, building the
// tool, a call through core's `CallableTool` (argument validation with ReadMediaFile's schema; read-only, like
// ReadMediaFile, so no context for observer sections) and core's file-type detection of the head — and does exactly the reference's resize inside that call
// (read, sharp, JPEG at quality 85, base64 data URL). Usage: image-fit-floor.ts FILE
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';
import { buildReadMediaFile } from '../tools.js';
import { localFileSystem } from '@kimi-tools/core/fs';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: image-fit-floor.ts FILE');

await buildReadMediaFile(path.dirname(file));
const [{ CallableTool, toolOk }, { detectFileKind, readFileHead }, { ReadMediaFileParams }] =
  await Promise.all([
    import('@kimi-tools/core'),
    import('@kimi-tools/core/toolkit'),
    import('@kimi-tools/media'),
  ]);
const timings = { detectMs: 0, resizeMs: 0, sentBytes: 0 };

/** Only what is not ReadMediaFile's own: core's type detection, then the reference's resize. */
class FloorTool extends CallableTool<typeof ReadMediaFileParams> {
  readonly name = 'ImageFitFloor';
  readonly description = 'The floor of the image-fit benchmark.';
  readonly params = ReadMediaFileParams;
  protected readonly failureBrief = 'Failed';

  protected override collectsChangeSections(): boolean {
    return false;
  }

  protected async execute(params: { path: string }) {
    const calledMs = sinceStartMs();
    const kind = await detectFileKind(params.path, await readFileHead(localFileSystem, params.path));
    if (kind.kind !== 'image') throw new Error(`not detected as an image: ${kind.kind}`);
    const detectedMs = sinceStartMs();
    const { default: sharp } = await import('sharp');
    const jpeg = await sharp(await readFile(params.path))
      .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
    const url = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    Object.assign(timings, {
      detectMs: detectedMs - calledMs,
      resizeMs: sinceStartMs() - detectedMs,
      sentBytes: jpeg.length,
    });
    return toolOk({ output: [{ type: 'image_url', url }], message: `${url.length} characters` });
  }
}

const tool = new FloorTool();
const builtMs = sinceStartMs();
const result = await tool.call({ path: file });
const calledMs = sinceStartMs();
if (result.isError) throw new Error(`the call failed: ${result.message}`);
process.stdout.write(`${result.message}\n`);
reportDetails({ startMs, importMs: builtMs - startMs, callMs: calledMs - builtMs, ...timings });
