import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  differences,
  ROW_DIR,
  ROW_FILE,
  ROW_LARGE,
  ROW_LINK,
  ROW_RULES,
  StampIndex,
  type IndexHeader,
  type IndexRow,
} from './stamp-index.js';

const HEADER: IndexHeader = {
  root: '/work',
  backend: 'local',
  manifest: 'abc',
  scannedAtMs: 1_700_000_000_000,
};

const stamp = (n: number) => ({
  size: n,
  mtimeMs: 1_600_000_000_000 + n,
  mtimeNs: 1_600_000_000_000_000_000n + BigInt(n),
  ctimeNs: 1_600_000_000_000_000_001n + BigInt(n),
  ino: BigInt(1000 + n),
  dev: 7n,
});

const file = (path: string, n: number, hash = String(n % 10).repeat(64)): IndexRow => ({
  path,
  kind: ROW_FILE,
  ignoreFile: false,
  mode: 0o644,
  hash,
  ...stamp(n),
});

const ROWS: IndexRow[] = [
  { path: '', kind: ROW_DIR, ignoreFile: false, mode: 0o755, ...stamp(0) },
  { ...file('.gitignore', 1), ignoreFile: true },
  file('a.txt', 2),
  { path: 'big.bin', kind: ROW_LARGE, ignoreFile: false, mode: 0o600, ...stamp(3) },
  { path: 'link', kind: ROW_LINK, ignoreFile: false, mode: 0o777, target: 'a.txt', ...stamp(4) },
  { path: 'src', kind: ROW_DIR, ignoreFile: false, mode: 0o755, ...stamp(5) },
  { path: 'src/.ignore', kind: ROW_RULES, ignoreFile: true, mode: 0o644, ...stamp(6) },
  // A backend that knows no inode or change time (SFTP): those fields stay absent.
  {
    path: 'src/remote.txt',
    kind: ROW_FILE,
    ignoreFile: false,
    mode: 0o644,
    hash: 'e'.repeat(64),
    size: 9,
    mtimeMs: 5,
  },
];

const rowsOf = (index: StampIndex) => Array.from({ length: index.count }, (_, row) => index.row(row));

describe('the index of a scan', () => {
  it('reads back every row exactly, from aligned bytes and from bytes at any offset', () => {
    const index = StampIndex.fromRows(HEADER, ROWS);
    const bytes = index.encode();
    const read = StampIndex.decode(bytes)!;
    expect(read.header).toEqual(HEADER);
    expect(rowsOf(read)).toEqual(ROWS);
    const shifted = Buffer.concat([Buffer.from([1, 2, 3]), bytes]).subarray(3);
    expect(rowsOf(StampIndex.decode(shifted)!)).toEqual(ROWS);
  });

  it('reads back paths that are not ASCII among many that are', () => {
    const names = ['a', 'caf\u00e9.txt', 'd/\u65e5\u672c/x', 'd/plain', 'e\u0301', 'z/\u{1f600}', 'zz'];
    const rows = names.map((path, n) => file(path, n));
    expect(rowsOf(StampIndex.decode(StampIndex.fromRows(HEADER, rows).encode())!)).toEqual(rows);
  });

  it('is no index when a byte is damaged, or when whole bytes do not add up, and never throws', () => {
    const bytes = StampIndex.fromRows(HEADER, ROWS).encode();
    bytes[40]! ^= 1;
    expect(StampIndex.decode(bytes)).toBeUndefined();
    // A section longer than the bytes, under a CRC-32 that holds.
    const body = StampIndex.fromRows(HEADER, ROWS).encode().subarray(0, -4);
    body.writeUInt32LE(0xffffff, 16 + body.readUInt32LE(12));
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32(body));
    expect(StampIndex.decode(Buffer.concat([body, crc]))).toBeUndefined();
  });

  it('puts rows in, replaces and removes them, first, in the middle and last, links keeping their targets', () => {
    const index = StampIndex.fromRows(HEADER, ROWS);
    const changed = index.withChanges(
      { ...HEADER, manifest: 'def' },
      new Map<string, IndexRow | null>([
        ['!first.txt', file('!first.txt', 11)],
        ['a.txt', file('a.txt', 12)],
        ['b.txt', file('b.txt', 13)],
        ['big.bin', null],
        ['zzz/last.txt', file('zzz/last.txt', 14)],
      ]),
    );
    expect(changed.header.manifest).toBe('def');
    expect(rowsOf(changed)).toEqual([
      ROWS[0],
      file('!first.txt', 11),
      ROWS[1],
      file('a.txt', 12),
      file('b.txt', 13),
      ROWS[4],
      ROWS[5],
      ROWS[6],
      ROWS[7],
      file('zzz/last.txt', 14),
    ]);
    expect(changed.entryAt('link')).toEqual({ type: 'link', target: 'a.txt' });
    expect(changed.rowOf('zzz/last.txt')).toBe(9);
    expect(changed.rowOf('big.bin')).toBeUndefined();
  });

  it('reads back an index whose rows were replaced, not added or removed (its paths encoded once)', () => {
    const read = StampIndex.decode(StampIndex.fromRows(HEADER, ROWS).encode())!;
    const replaced = read.withChanges(HEADER, new Map([['a.txt', file('a.txt', 40)]]));
    expect(rowsOf(StampIndex.decode(replaced.encode())!)).toEqual(
      ROWS.map((row) => (row.path === 'a.txt' ? file('a.txt', 40) : row)),
    );
    const grown = replaced.withChanges(HEADER, new Map([['b.txt', file('b.txt', 41)]]));
    expect(StampIndex.decode(grown.encode())!.paths).toContain('b.txt');
  });

  it('makes a manifest without stamps, the same bytes for the same contents', () => {
    const index = StampIndex.fromRows(HEADER, ROWS);
    const manifest = index.manifest();
    expect(manifest.paths).toEqual(['.gitignore', 'a.txt', 'big.bin', 'link', 'src', 'src/remote.txt']);
    const touched = StampIndex.fromRows(
      { ...HEADER, scannedAtMs: 1 },
      ROWS.map((row) => (row.kind === ROW_FILE ? { ...row, ...stamp(99), size: row.size } : row)),
    );
    expect(touched.manifest().encode().equals(manifest.encode())).toBe(true);
    // Made from an index read back (whose encoded paths it cuts its own from), the same bytes; an ignored ignore
    // file last too.
    expect(StampIndex.decode(index.encode())!.manifest().encode().equals(manifest.encode())).toBe(true);
    const rulesLast = [...ROWS, { ...ROWS[6]!, path: 'z/.ignore' }];
    expect(
      StampIndex.decode(StampIndex.fromRows(HEADER, rulesLast).encode())!
        .manifest()
        .encode()
        .equals(StampIndex.fromRows(HEADER, rulesLast).manifest().encode()),
    ).toBe(true);
    expect(differences(index, touched)).toEqual([]);
    expect(rowsOf(StampIndex.decode(manifest.encode())!)).toEqual(rowsOf(manifest));
    // Without a large file (whose stamp stands for its content) the stamp columns are zeros, and are not written.
    const small = StampIndex.fromRows(
      HEADER,
      ROWS.filter((row) => row.kind !== ROW_LARGE),
    ).manifest();
    expect(small.encode().length).toBeLessThan(manifest.encode().length - 5 * 8 * small.count);
    expect(rowsOf(StampIndex.decode(small.encode())!)).toEqual(rowsOf(small));
  });

  it('tells the paths whose content differs, with their rows', () => {
    const before = StampIndex.fromRows(HEADER, ROWS);
    const after = before.withChanges(
      HEADER,
      new Map<string, IndexRow | null>([
        ['a.txt', file('a.txt', 2, 'f'.repeat(64))],
        ['link', { ...ROWS[4]!, target: 'elsewhere' }],
        ['src', { ...ROWS[5]!, mode: 0o700 }],
        ['src/.ignore', null],
        ['new.txt', file('new.txt', 20)],
        ['src/remote.txt', null],
      ]),
    );
    expect(differences(before.manifest(), after)).toEqual([
      { path: 'a.txt', a: 1, b: 2 },
      { path: 'link', a: 3, b: 4 },
      { path: 'new.txt', a: undefined, b: 5 },
      { path: 'src', a: 4, b: 6 },
      { path: 'src/remote.txt', a: 5, b: undefined },
    ]);
  });
});

// docs/paths.md#names-that-are-not-utf-8: a name that is not UTF-8 is carried as byte escapes (`inv\udcff.txt`).
describe('names that are not UTF-8', () => {
  const names = [
    '',
    'a\udcff.txt',
    'dir\udcff',
    'dir\udcff/in.txt',
    'inv\udcff.txt',
    'inv\ufffd.txt',
    'z.txt',
  ];
  // Two ignore files the rules leave out, the first one's name read as UTF-8 that of a file the manifest keeps.
  const ignored = ['a\ufffd.txt', 'dir\udcff/.ignore'];
  const all = [...names, ...ignored].sort();
  const rows = all.map((path, n): IndexRow => {
    if (ignored.includes(path)) return { ...file(path, n), kind: ROW_RULES, ignoreFile: true };
    return path === '' || path === 'dir\udcff' ? { ...ROWS[0]!, path } : file(path, n);
  });

  it('are written as their bytes and read back as themselves, apart from U+FFFD', () => {
    const index = StampIndex.fromRows(HEADER, rows);
    const bytes = index.encode();
    expect(bytes.includes(Buffer.from('\0inv\xff.txt\0', 'latin1'))).toBe(true);
    const decoded = StampIndex.decode(bytes)!;
    expect(decoded.paths).toEqual(all);
    expect(decoded.mayHaveLostNames).toBe(false);
    // A manifest of some rows cuts their bytes out of the decoded index's: each row found by its own bytes.
    const manifest = StampIndex.decode(decoded.manifest().encode())!;
    expect(manifest.paths).toEqual(names.slice(1));
    expect(StampIndex.decode(StampIndex.fromRows(HEADER, rows).manifest().encode())!.paths).toEqual(
      names.slice(1),
    );
  });

  // Version 3 alone made a store unreadable by an earlier release (it took the version for damage), whatever its names.
  it('make an index version 3, and an index without them stays version 2, which earlier releases read', () => {
    const version = (paths: string[]) =>
      StampIndex.fromRows(
        HEADER,
        paths.map((path, n) => (path === '' ? ROWS[0]! : file(path, n))),
      )
        .encode()
        .readUInt32LE(4);
    expect(version(['', 'a.txt'])).toBe(2);
    expect(version(['', 'caf\u00e9.txt', '\u{1F600}.txt'])).toBe(2);
    expect(version(['', 'inv\udcff.txt'])).toBe(3);
    expect(version(['', 'inv\ufffd.txt'])).toBe(3);
    const plain = StampIndex.decode(
      StampIndex.fromRows(HEADER, [ROWS[0]!, file('caf\u00e9.txt', 1)]).encode(),
    )!;
    expect(plain.paths).toEqual(['', 'caf\u00e9.txt']);
    expect(plain.mayHaveLostNames).toBe(false);
  });

  it('are not trusted to an index written before they were written as bytes, where U+FFFD may stand for any', () => {
    const bytes = StampIndex.fromRows(HEADER, rows).encode();
    bytes.writeUInt32LE(2, 4);
    bytes.writeUInt32LE(crc32(bytes.subarray(0, bytes.length - 4)), bytes.length - 4);
    expect(StampIndex.decode(bytes)!.mayHaveLostNames).toBe(true);
    const plain = StampIndex.fromRows(HEADER, [ROWS[0]!, file('a.txt', 1)]).encode();
    plain.writeUInt32LE(2, 4);
    plain.writeUInt32LE(crc32(plain.subarray(0, plain.length - 4)), plain.length - 4);
    expect(StampIndex.decode(plain)!.mayHaveLostNames).toBe(false);
  });
});
