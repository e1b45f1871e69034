import { expect } from 'vitest';
import { expectCode, S_IFMT, S_IFREG, writeFully, type ConformanceCase } from './conformance-case.js';

/** 2001-09-09T01:46:40Z, and half a second more: exact in binary, so no backend has to round it. */
const PAST_SECONDS = 1_000_000_000;
const PAST_FRACTION_SECONDS = 1_000_000_000.5;

/** Modes and times: what chmod and utimes set, and what a write moves. */
export const metadataCases: readonly ConformanceCase[] = [
  {
    name: 'chmod keeps the permission bits it is given and the type bits, and follows a link',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      for (const mode of [0o640, 0o755, 0o600, 0o444, 0o777]) {
        await fs.chmod(file, mode);
        const stats = await fs.stat(file);
        expect(stats.mode & 0o7777).toBe(mode);
        expect(stats.mode & S_IFMT).toBe(S_IFREG);
      }
      await fs.symlink('file', context.at('link'));
      await fs.chmod(context.at('link'), 0o604);
      expect((await fs.stat(file)).mode & 0o7777).toBe(0o604);
      await fs.mkdir(context.at('dir'));
      await fs.chmod(context.at('dir'), 0o711);
      expect((await fs.stat(context.at('dir'))).mode & 0o7777).toBe(0o711);
      await expectCode(fs.chmod(context.at('missing'), 0o600), 'ENOENT');
    },
  },
  {
    name: 'now, where given, reads the clock that stamps files: no file made before it is stamped later, none after earlier',
    async run(context) {
      const { fs } = context;
      if (!fs.now) return context.skip("the backend stamps files with this process's clock (no now)");
      const before = await context.write('before', 'x');
      const now = await fs.now();
      const after = await context.write('after', 'x');
      expect((await fs.stat(before)).mtimeMs).toBeLessThanOrEqual(now);
      // A kernel's coarse clock may stamp a few milliseconds behind a fine one.
      expect((await fs.stat(after)).mtimeMs).toBeGreaterThanOrEqual(now - 20);
    },
  },
  {
    name: 'chmod leaves the modification time alone',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.utimes(file, PAST_SECONDS, PAST_SECONDS);
      await fs.chmod(file, 0o600);
      expect((await fs.stat(file)).mtimeMs).toBe(PAST_SECONDS * 1000);
    },
  },
  {
    name: 'utimes sets the modification time, to the fraction of a second where the backend keeps it',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.utimes(file, PAST_SECONDS, PAST_SECONDS);
      expect((await fs.stat(file)).mtimeMs).toBe(PAST_SECONDS * 1000);
      await fs.utimes(file, PAST_SECONDS, PAST_FRACTION_SECONDS);
      const stats = await fs.stat(file);
      const { timeResolutionMs } = fs.capabilities;
      expect(stats.mtimeMs).toBeLessThanOrEqual(PAST_FRACTION_SECONDS * 1000);
      expect(stats.mtimeMs).toBeGreaterThan(PAST_FRACTION_SECONDS * 1000 - Math.max(timeResolutionMs, 1e-3));
      if (timeResolutionMs <= 500) expect(stats.mtimeMs).toBe(PAST_FRACTION_SECONDS * 1000);
      if (timeResolutionMs < 1) expect(stats.mtimeNs).toBe(1_000_000_000_500_000_000n);
    },
  },
  {
    name: 'utimes follows a link, and rejects ENOENT for a missing path',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.symlink('file', context.at('link'));
      await fs.utimes(context.at('link'), PAST_SECONDS, PAST_SECONDS);
      expect((await fs.stat(file)).mtimeMs).toBe(PAST_SECONDS * 1000);
      await expectCode(fs.utimes(context.at('missing'), PAST_SECONDS, PAST_SECONDS), 'ENOENT');
    },
  },
  {
    name: 'a write moves the modification time to now, and the change time never goes back',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'old');
      const created = await fs.stat(file);
      await fs.utimes(file, PAST_SECONDS, PAST_SECONDS);
      const backdated = await fs.stat(file);
      expect(backdated.mtimeMs).toBe(PAST_SECONDS * 1000);
      if (fs.capabilities.ctime) expect(backdated.ctimeNs! >= created.ctimeNs!).toBe(true);
      const handle = await fs.open(file, 'update');
      try {
        await writeFully(handle, Buffer.from('new'), 0);
      } finally {
        await handle.close();
      }
      const written = await fs.stat(file);
      expect(written.mtimeMs).toBeGreaterThanOrEqual(
        created.mtimeMs - Math.max(fs.capabilities.timeResolutionMs, 1),
      );
      if (fs.capabilities.ctime) expect(written.ctimeNs! >= backdated.ctimeNs!).toBe(true);
    },
  },
];
