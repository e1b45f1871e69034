import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { yoloApproval } from '../approval/approval.js';
import { localFileSystem } from '../fs/local-file-system.js';
import { memoryFileSystem } from '../fs/memory/memory-file-system.js';
import { createRuntime } from './runtime.js';

const approval = yoloApproval();

describe('the file system of a runtime', () => {
  it('is the local disk unless one is given', () => {
    expect(createRuntime({ workDir: '/tmp', approval }).fs).toBe(localFileSystem);
  });

  it('is the one given: a workspace in memory, seeded, read and written through runtime.fs', async () => {
    const fs = memoryFileSystem({ files: { '/work/a.txt': 'hello\n' } });
    const runtime = createRuntime({ workDir: '/work', approval, fs });
    expect(runtime.fs).toBe(fs);
    expect(runtime.workDir).toBe('/work');
    expect(await runtime.fs.realpath(runtime.workDir)).toBe('/work');

    const file = await runtime.fs.open('/work/a.txt', 'read');
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    await file.close();
    expect(buffer.subarray(0, bytesRead).toString()).toBe('hello\n');

    const created = await runtime.fs.create('/work/written-in-memory.txt');
    await created.write(Buffer.from('new\n'), 0, 4, 0);
    await created.close();
    expect(Object.keys(fs.snapshot('/work'))).toEqual(['/work/a.txt', '/work/written-in-memory.txt']);
    expect(existsSync('/work/written-in-memory.txt')).toBe(false);
  });
});
