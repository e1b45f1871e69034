import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRuntime, yoloApproval, type FileSystem } from '@kimi-tools/core';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import { forwardingFileSystem, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints, defaultStoreDirectory } from './index.js';
import { CheckpointStore } from './store/checkpoint-store.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const PROCESS = path.join(here, '__fixtures__/checkpoint-process.ts');
/** 256 distinct bytes: gzip cannot make them smaller. */
const NOISE = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 151) % 256));

/** Every file under a directory with its bytes (for "nothing changed" checks). */
async function tree(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await fs.readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(directory, full)] = (await fs.readFile(full)).toString('hex');
  }
  return files;
}

/** Sets a file's times an hour back, so a scan takes its stamp as settled. */
async function settle(file: string): Promise<void> {
  const past = Date.now() / 1000 - 3600;
  await fs.utimes(file, past, past);
}

describe('the store', () => {
  test('lives outside the workspace, stores one copy of a content, compressed, in one pack per checkpoint', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    const text = 'the same line again and again\n'.repeat(200);
    await workspace.writeAll({
      'a.txt': text,
      'b.txt': text,
      'noise.bin': NOISE,
    });
    await checkpoints.create();
    await checkpoints.create();
    expect(await fs.readdir(workspace.workDir)).toEqual(['a.txt', 'b.txt', 'noise.bin']);
    const objects = new CheckpointStore(store).objects;
    // One pack: the second checkpoint, of the same files, adds nothing (not even a manifest).
    expect(await objects.packs()).toHaveLength(1);
    // One content for both texts, one for the noise, one manifest.
    const contents = await objects.list();
    expect(contents.size).toBe(3);
    expect(contents.has(hashOf(text))).toBe(true);
    expect((await objects.get(hashOf(NOISE))).equals(NOISE)).toBe(true);
    expect(await objects.sizeOnDisk()).toBeLessThan(text.length / 4);
  });

  test('stores a content once, however many checkpoints later it comes back', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    for (const version of ['first\n', 'second\n', 'first\n']) {
      await workspace.write('a.txt', version);
      await checkpoints.create();
    }
    const objects = new CheckpointStore(store).objects;
    // The third checkpoint holds the first's content and the first's manifest: it adds no pack.
    expect(await objects.packs()).toHaveLength(2);
    expect((await checkpoints.rewind('2')).kind).toBe('rewound');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('second\n');
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('first\n');
  });

  test('leaves its own store out of the checkpoints when it lies in the workspace (a workspace that is home)', async ({
    workspace,
    runtime,
  }) => {
    // Where the default store of a workspace that is the home directory lies.
    const store = workspace.at('.local/state/kimi-tools/checkpoints/0123456789abcdef');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    await workspace.write('a.txt', 'one\n');
    await checkpoints.create('one');
    await workspace.write('a.txt', 'two\n');
    expect((await checkpoints.create('two')).files).toEqual([{ path: 'a.txt', change: 'modified' }]);
    expect((await checkpoints.create('three')).files).toEqual([]);
    // The store's files, changed by every checkpoint, are not the user's changes: nothing blocks the rewind.
    expect(await checkpoints.rewind('1')).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'a.txt', change: 'modified' }],
    });
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one\n');
    expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual([
      'one',
      'two',
      'three',
      'rewind to 1',
    ]);
  });

  test('leaves alone the store files a checkpoint taken before they were left out holds', async ({
    workspace,
  }) => {
    const store = workspace.at('.local/state/kimi-tools/checkpoints/0123456789abcdef');
    // A backend of another name: the store is not recognised in it, and its files are checkpointed as they were.
    const earlier = createCheckpoints(
      workspace.runtime({ fs: { ...forwardingFileSystem(localFileSystem), name: 'earlier' } }),
      { dir: store },
    );
    await workspace.write('a.txt', 'one\n');
    await earlier.create('one');
    await workspace.write('a.txt', 'two\n');
    const two = await earlier.create('two');
    expect(two.files.map((file) => file.path)).toContain(
      '.local/state/kimi-tools/checkpoints/0123456789abcdef/index',
    );
    const storeBefore = Object.keys(await tree(store)).filter((name) => !name.endsWith('.kimi-lock'));
    const checkpoints = createCheckpoints(workspace.runtime(), { dir: store });
    await workspace.write('a.txt', 'three\n');
    // The store's files leave the checkpoints (gone from this one's manifest), and no later one records them.
    const three = await checkpoints.create('three');
    expect(new Set(three.files.filter((file) => file.path !== 'a.txt').map((file) => file.change))).toEqual(
      new Set(['deleted']),
    );
    expect((await checkpoints.create('four')).files).toEqual([]);
    expect(await checkpoints.rewind('1', { resolve: () => 'take' })).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'a.txt', change: 'modified' }],
    });
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one\n');
    // Nothing of the store was taken back: what it held is still there, with what the later checkpoints added.
    expect(Object.keys(await tree(store))).toEqual(expect.arrayContaining(storeBefore));
    expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'rewind to 1',
    ]);
  });

  test('defaults to a directory per workspace under the state directory', () => {
    expect(defaultStoreDirectory('local', '/home/me/project', { XDG_STATE_HOME: '/state' })).toMatch(
      /^\/state\/kimi-tools\/checkpoints\/[0-9a-f]{16}$/,
    );
    expect(defaultStoreDirectory('local', '/home/me/project', { XDG_STATE_HOME: '/state' })).not.toBe(
      defaultStoreDirectory('local', '/home/me/other', { XDG_STATE_HOME: '/state' }),
    );
    expect(
      defaultStoreDirectory('local', '/p', { HOME: '/h' }).startsWith(
        path.join(process.env.HOME ?? '', '.local/state/kimi-tools/checkpoints/'),
      ),
    ).toBe(true);
  });

  test('keeps two memory workspaces at one path apart by default: neither lists, nor rewinds to, the other’s', async ({
    workspace,
  }) => {
    const saved = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = workspace.outside('state');
    try {
      const open = (secret: string) => {
        const fs = memoryFileSystem({ files: { '/work/secret.txt': secret } });
        return createCheckpoints(createRuntime({ workDir: '/work', approval: yoloApproval(), fs }));
      };
      const [first, second] = [open('first tenant\n'), open('second tenant\n')];
      expect(second.directory).not.toBe(first.directory);
      await first.create('the first tenant’s');
      expect(await second.list()).toEqual([]);
      await expect(second.rewind('1')).rejects.toThrow('There is no checkpoint 1.');
    } finally {
      if (saved === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = saved;
    }
  });

  test('gives the state after a rewind that took everything back the manifest of the checkpoint it went to', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    await workspace.writeAll({ 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    await checkpoints.create();
    await workspace.writeAll({ 'a.txt': 'A\n', 'd.txt': 'd\n' });
    await checkpoints.create();
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    const records = await new CheckpointStore(store).list();
    expect(records.map((record) => record.label)).toEqual([undefined, undefined, 'rewind to 1']);
    expect(records[2]!.manifest).toBe(records[0]!.manifest);
    expect(records[2]!.added.map(([hash]) => hash)).toContain(records[0]!.manifest);
    expect(await checkpoints.diff('1')).toEqual([]);
    expect((await checkpoints.create()).files).toEqual([]);
  });

  test('gives the state after a rewind of some paths, others still changed, a manifest of its own', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    await workspace.writeAll({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await checkpoints.create();
    await workspace.writeAll({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    await checkpoints.create();
    expect((await checkpoints.rewind('1', { paths: ['a.txt'] })).kind).toBe('rewound');
    const records = await new CheckpointStore(store).list();
    expect(records.map((record) => record.label)).toEqual([undefined, undefined, 'rewind to 1']);
    expect(records[2]!.manifest).not.toBe(records[0]!.manifest);
    expect((await checkpoints.diff('1')).map((file) => file.path)).toEqual(['b.txt']);
    expect((await checkpoints.create()).files).toEqual([]);
  });

  test('refuses a damaged content: a rewind that needs it throws and writes nothing', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    // 80 KiB that deflate cannot shrink (SHA-256 blocks): a block of its own, stored as it is.
    const noise = Buffer.concat(
      Array.from({ length: 2560 }, (_, i) => createHash('sha256').update(String(i)).digest()),
    );
    await workspace.writeAll({ 'noise.bin': noise, 'a.txt': 'a\n' });
    await checkpoints.create();
    await workspace.writeAll({ 'noise.bin': 'replaced\n', 'a.txt': 'A\n' });
    await checkpoints.create();
    const objects = new CheckpointStore(store).objects;
    let damaged = 0;
    for (const pack of await objects.packs()) {
      const file = path.join(objects.directory, `${pack}.pack`);
      const bytes = await fs.readFile(file);
      const at = bytes.indexOf(noise.subarray(1000, 1100));
      if (at === -1) continue;
      bytes[at] = bytes[at]! ^ 0xff;
      await fs.writeFile(file, bytes);
      damaged += 1;
    }
    expect(damaged).toBe(1);
    await expect(checkpoints.rewind('1')).rejects.toThrow(
      `The checkpoint store's object ${hashOf(noise)} is damaged.`,
    );
    expect(await fs.readFile(workspace.at('noise.bin'), 'utf8')).toBe('replaced\n');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('A\n');
  });

  test('passes over a damaged record, as if it were not there: later checkpoints and rewinds go on', async ({
    workspace,
  }) => {
    const store = workspace.outside('store');
    const open = () => createCheckpoints(workspace.runtime(), { dir: store });
    const first = open();
    await workspace.write('a.txt', 'one\n');
    await first.create('one');
    await workspace.write('a.txt', 'two\n');
    await first.create('two');
    // The newest record overwritten (a disk error, a stray write), read by the next process.
    await fs.writeFile(path.join(store, 'checkpoints', '0000000002.json'), 'not a record');
    await workspace.write('a.txt', 'three\n');
    const next = open();
    expect((await next.list()).map((checkpoint) => checkpoint.label)).toEqual(['one']);
    // Its id stays taken; the change is counted from the checkpoint before it.
    expect(await next.create('three')).toMatchObject({
      id: '3',
      files: [{ path: 'a.txt', change: 'modified' }],
    });
    expect(await next.rewind('1')).toMatchObject({ kind: 'rewound', before: '3' });
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one\n');
    await expect(next.rewind('2')).rejects.toThrow('There is no checkpoint 2.');
  });

  test('prunes the oldest checkpoints beyond maxCount, and the contents only they held', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store, maxCount: 2 });
    for (const version of ['one', 'two', 'three']) {
      await workspace.write('a.txt', `${version}\n`);
      await checkpoints.create(version);
    }
    expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual(['two', 'three']);
    const objects = await new CheckpointStore(store).objects.list();
    expect(objects.has(hashOf('one\n'))).toBe(false);
    expect(objects.has(hashOf('two\n'))).toBe(true);
    expect(await new CheckpointStore(store).objects.packs()).toHaveLength(2);
    await expect(checkpoints.rewind('1')).rejects.toThrow('There is no checkpoint 1.');
    const rewound = await checkpoints.rewind('2');
    expect(rewound.kind).toBe('rewound');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('two\n');
  });

  test('prunes the oldest checkpoints while the contents take more than maxBytes, never the newest', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store, maxBytes: 1 });
    await workspace.write('a.txt', 'one\n');
    await checkpoints.create('one');
    await workspace.write('a.txt', 'two\n');
    await checkpoints.create('two');
    expect((await checkpoints.list()).map((checkpoint) => checkpoint.label)).toEqual(['two']);
    expect((await new CheckpointStore(store).objects.list()).has(hashOf('one\n'))).toBe(false);
  });

  test('records a file over maxFileBytes as not restorable, and leaves it alone with the reason', async ({
    workspace,
    runtime,
  }) => {
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store'), maxFileBytes: 10 });
    await workspace.writeAll({ 'big.txt': 'more than ten bytes\n', 'small.txt': 'small\n' });
    await checkpoints.create();
    await workspace.writeAll({ 'big.txt': 'changed, and still big\n', 'small.txt': 'tiny\n' });
    await checkpoints.create();
    const result = await checkpoints.rewind('1');
    expect(result).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'small.txt', change: 'modified' }],
      leftAlone: [{ path: 'big.txt', reason: 'not-restorable' }],
    });
    expect(await fs.readFile(workspace.at('big.txt'), 'utf8')).toBe('changed, and still big\n');
  });

  test('keeps two processes checkpointing one workspace at once apart', async ({ workspace }) => {
    const store = workspace.outside('store');
    const start = (name: string) =>
      run(tsx, ['--conditions=@kimi-tools/source', PROCESS, workspace.workDir, store, name, '5'], {
        timeout: 60_000,
      });
    const [first, second] = await Promise.all([start('first'), start('second')]);
    const ids = [...first.stdout.trim().split(' '), ...second.stdout.trim().split(' ')];
    expect(ids.map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const records = await new CheckpointStore(store).list();
    expect(records.map((record) => record.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // Every checkpoint is complete: its manifest and every content it names read back and match their hashes.
    const objects = new CheckpointStore(store);
    for (const record of records) {
      const manifest = await objects.manifestOf(record);
      for (const [, entry] of manifest.manifestEntries())
        if (entry.type === 'file') await objects.objects.get(entry.hash);
    }
    expect(Object.keys(await tree(store)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the scan', () => {
  test('reads no file whose stamp did not move since the last checkpoint', async ({
    workspace,
    approval,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'src/b.txt': 'b\n', 'src/c.txt': 'c\n' });
    for (const name of ['a.txt', 'src/b.txt', 'src/c.txt']) await settle(workspace.at(name));
    const opened: string[] = [];
    const counting: FileSystem = {
      ...localFileSystem,
      open: (file, mode) => {
        opened.push(file);
        return localFileSystem.open(file, mode);
      },
    };
    const runtime = createRuntime({ workDir: workspace.workDir, approval, fs: counting });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    expect(opened.sort()).toEqual([
      workspace.at('a.txt'),
      workspace.at('src/b.txt'),
      workspace.at('src/c.txt'),
    ]);
    opened.length = 0;
    await checkpoints.create();
    expect(opened).toEqual([]);
    await fs.writeFile(workspace.at('src/b.txt'), 'B\n');
    const third = await checkpoints.create();
    expect(opened).toEqual([workspace.at('src/b.txt')]);
    expect(third.files).toEqual([{ path: 'src/b.txt', change: 'modified' }]);
  });

  test('records what a shell command changed, and rewinds it byte for byte', async ({
    workspace,
    runtime,
  }) => {
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await workspace.writeAll({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'tool.sh': 'echo\n' });
    const before = await tree(workspace.workDir);
    await checkpoints.create('before the command');
    await run(
      'sh',
      [
        '-c',
        'printf "A\\r\\n" > a.txt && rm b.txt && mkdir -p out && cp a.txt out/c.txt && chmod 755 tool.sh && ln -s a.txt link',
      ],
      {
        cwd: workspace.workDir,
      },
    );
    const after = await checkpoints.create('after the command');
    expect(after.files).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'b.txt', change: 'deleted' },
      { path: 'link', change: 'created' },
      { path: 'out/c.txt', change: 'created' },
      { path: 'tool.sh', change: 'modified' },
    ]);
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    expect(await tree(workspace.workDir)).toEqual(before);
    expect(await fs.readdir(workspace.workDir)).toEqual(['a.txt', 'b.txt', 'tool.sh']);
    expect((await fs.stat(workspace.at('tool.sh'))).mode & 0o777).toBe(0o644);
  });

  test('never touches a git repository in the workspace', async ({ workspace, runtime }) => {
    const git = (...args: string[]) => run('git', args, { cwd: workspace.workDir });
    await git('init', '-q');
    await git('config', 'user.email', 'test@example.com');
    await git('config', 'user.name', 'Test');
    await workspace.writeAll({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await git('add', '-A');
    await git('commit', '-qm', 'first');
    await workspace.write('a.txt', 'staged\n');
    await git('add', 'a.txt');
    await workspace.write('b.txt', 'unstaged\n');
    // `.git` byte for byte as the last git command left it (`git status` refreshes its own index), and what git says.
    let lastGit = await tree(workspace.at('.git'));
    const state = async () => {
      expect(await tree(workspace.at('.git'))).toEqual(lastGit);
      const status = (await git('status', '--porcelain=v2')).stdout;
      const refs = (await git('show-ref')).stdout;
      lastGit = await tree(workspace.at('.git'));
      return { status, refs };
    };
    const before = await state();
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await checkpoints.create();
    expect(await state()).toEqual(before);
    expect((await checkpoints.list())[0]!.files.map((file) => file.path)).toEqual(['a.txt', 'b.txt']);
    await workspace.write('a.txt', 'changed again\n');
    await workspace.write('c.txt', 'new\n');
    const changed = await state();
    await checkpoints.create();
    expect(await state()).toEqual(changed);
    await checkpoints.diff('1');
    expect(await state()).toEqual(changed);
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    expect(await state()).toEqual(before);
    expect((await checkpoints.rewind('2')).kind).toBe('rewound');
    expect(await state()).toEqual(changed);
  });
});

function hashOf(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
