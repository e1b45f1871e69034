import { backendHas, forwardingFileSystem, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ResultPathFilter } from './result-path-filter.js';

const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n';
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';

/** What ripgrep might list: plain files, a sensitive name, keys and certificates, a file deleted since. */
const LISTED = ['a.txt', '.env', 'sub/b.txt', 'gone.txt', 'tls.pem', 'cert.pem'];
const KEPT = [true, false, true, true, false, true];
/** The listed files that exist (`gone.txt` does not). */
const FILES = {
  'a.txt': 'a\n',
  '.env': 'TOKEN=1\n',
  'sub/b.txt': 'b\n',
  'tls.pem': PRIVATE_KEY,
  'cert.pem': CERTIFICATE,
};

describe('ResultPathFilter', () => {
  it('judges a batch as each file alone: sensitive names and private keys out, a deleted file in at time 0', async ({
    workspace,
  }) => {
    await workspace.writeAll(FILES);
    const filter = new ResultPathFilter(workspace.runtime(), workspace.workDir);
    expect(await filter.keepsEach(LISTED)).toEqual(KEPT);
    const times = await filter.keptTimes(LISTED);
    const mtime = async (file: string) => (await workspace.fs.stat(workspace.at(file))).mtimeMs;
    expect(times).toEqual([
      await mtime('a.txt'),
      undefined,
      await mtime('sub/b.txt'),
      0,
      undefined,
      await mtime('cert.pem'),
    ]);
  });

  it.runIf(backendHas('hard-links'))(
    'refuses a hard link to a sensitive file met in a batch',
    async ({ workspace }) => {
      await workspace.writeAll({ '.env': 'TOKEN=1\n', 'a.txt': 'a\n' });
      await workspace.link('notes.txt', '.env');
      const filter = new ResultPathFilter(workspace.runtime(), workspace.workDir);
      expect(await filter.keepsEach(['a.txt', 'notes.txt'])).toEqual([true, false]);
      expect((await filter.keptTimes(['a.txt', 'notes.txt']))[1]).toBeUndefined();
    },
  );

  it('judges each file alone, with the same verdicts, when the batch cannot be looked at', async ({
    workspace,
  }) => {
    await workspace.writeAll(FILES);
    const failing = () => Promise.reject(Object.assign(new Error('EIO: i/o error, lstat'), { code: 'EIO' }));
    const fs = { ...forwardingFileSystem(workspace.fs), lstat: failing, lstatMany: failing };
    const filter = new ResultPathFilter(workspace.runtime({ fs }), workspace.workDir);
    expect(await filter.keepsEach(LISTED)).toEqual(KEPT);
    expect((await filter.keptTimes(LISTED)).map((time) => time !== undefined)).toEqual(KEPT);
  });

  it('has one batch of lstats out at a time, however many batches come in at once', async ({ workspace }) => {
    const names = Array.from({ length: 80 }, (_, index) => `f${index}.txt`);
    await workspace.writeAll(Object.fromEntries(names.map((name) => [name, 'x\n'])));
    const base = forwardingFileSystem(workspace.fs);
    let running = 0;
    let most = 0;
    const lstat = async (path: string) => {
      most = Math.max(most, ++running);
      try {
        return await base.lstat(path);
      } finally {
        running--;
      }
    };
    // Without `lstatMany`: core's `lstatMany` takes 32 at a time, as it does on a remote backend.
    const filter = new ResultPathFilter(workspace.runtime({ fs: { ...base, lstat } }), workspace.workDir);
    const batches = await Promise.all([
      filter.keptTimes(names.slice(0, 40)),
      filter.keptTimes(names.slice(40)),
    ]);
    expect(batches.flat().every((time) => time !== undefined && time > 0)).toBe(true);
    expect(most).toBe(32);
  });
});
