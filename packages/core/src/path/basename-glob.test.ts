import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { basenameGlobRegExp } from './basename-glob.js';
import { SENSITIVE_FILES } from './sensitive.js';

/** Basenames around the table's globs: exact names, look-alikes, dots, cases, and names only a wildcard covers. */
const NAMES = [
  '.env',
  '.env.',
  '.env..',
  '.env.local',
  '.ENV.local',
  'env.local',
  '.envrc',
  '.npmrc',
  '.NPMRC',
  '_netrc',
  'credentials',
  'credentials.json',
  'a.key',
  '.key',
  '..key',
  'key',
  'a.KEY',
  'x.key.bak',
  'b.p12',
  'c.pfx',
  'cert.pem',
  '.pem',
  'id_rsa',
  'ID_RSA',
  'id_rsa.pub',
  'id_ed25519_work',
  'id_ecdsa.pub',
  'id_dsa',
  'id_rs',
  'xid_rsa',
  'id_rsa\n',
  '.',
  '..',
  '',
];

const TABLE_GLOBS = SENSITIVE_FILES.flatMap((entry) =>
  entry.pattern.includes('/') ? [] : [entry.pattern, ...(entry.except ? [entry.except] : [])],
);

describe('basenameGlobRegExp', () => {
  it.each(TABLE_GLOBS)('matches what picomatch matches for the table glob %s', (glob) => {
    for (const nocase of [false, true]) {
      const ours = basenameGlobRegExp(glob, nocase);
      const theirs = picomatch(glob, { dot: true, nocase });
      for (const name of NAMES) expect([name, ours.test(name)]).toEqual([name, theirs(name)]);
    }
  });

  it('refuses the syntax it does not compile', () => {
    for (const glob of ['[ab].key', '**/x', '!x', '{a}', 'a{b,c', '*.{a,b*}', 'a\\*', '@(a|b)']) {
      expect(() => basenameGlobRegExp(glob, false)).toThrow(
        `Unsupported glob in the sensitive-file table: ${glob}`,
      );
    }
  });
});
