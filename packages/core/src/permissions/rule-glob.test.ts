import { describe, expect, it } from 'vitest';
import { compileRuleGlob } from './rule-glob.js';

const POSIX = { nocase: false, windows: false };

function matcher(glob: string, options = POSIX) {
  const compiled = compileRuleGlob(glob, options);
  return (subject: string) => compiled.test(subject);
}

describe('rule globs, read as .gitignore reads them', () => {
  it('matches a glob without a slash at any depth', () => {
    const lock = matcher('*.lock');
    expect(['a.lock', 'x/y/pnpm.lock'].map(lock)).toEqual([true, true]);
    expect(['a.lockx', 'lock'].map(lock)).toEqual([false, false]);
  });

  it('anchors a glob with a slash at the workspace directory', () => {
    const src = matcher('src/*.ts');
    expect(['src/a.ts', 'lib/src/a.ts', 'src/x/a.ts'].map(src)).toEqual([true, false, false]);
    expect(['src/a.ts', 'src/x/y.ts', 'lib/src/a.ts'].map(matcher('src/**'))).toEqual([true, true, false]);
  });

  it('matches a name and what lies under it, with or without a trailing slash', () => {
    const secrets = matcher('secrets');
    expect(['secrets', 'secrets/a.txt', 'x/secrets/b/c', 'secrets-old/a'].map(secrets)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    const dist = matcher('dist/');
    expect(['dist', 'dist/app.js', 'pkg/dist/app.js', 'distro/a'].map(dist)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('takes dot files, ranges, negated ranges and escapes, and parentheses and braces literally', () => {
    expect(matcher('.github/**')('.github/workflows/ci.yml')).toBe(true);
    expect(matcher('*')('.env')).toBe(true);
    expect(['a.ts', 'b.ts', 'c.ts'].map(matcher('[ab].ts'))).toEqual([true, true, false]);
    expect(['a.ts', 'b.ts'].map(matcher('[!a].ts'))).toEqual([false, true]);
    expect(['a*.ts', 'ab.ts'].map(matcher('a\\*.ts'))).toEqual([true, false]);
    expect(['app/(site)/page.ts', 'app/site/page.ts'].map(matcher('app/(site)/**'))).toEqual([true, false]);
    expect(['src/{a,b}.ts', 'src/a.ts'].map(matcher('src/{a,b}.ts'))).toEqual([true, false]);
    expect(['a|b', 'a'].map(matcher('a|b'))).toEqual([true, false]);
    expect(matcher('[abc')('[abc')).toBe(true);
  });

  it('is absolute with a leading slash, or a drive on Windows', () => {
    expect(compileRuleGlob('/etc/**', POSIX).absolute).toBe(true);
    expect(compileRuleGlob('etc/**', POSIX).absolute).toBe(false);
    expect(compileRuleGlob('C:/Users/**', POSIX).absolute).toBe(false);
    expect(compileRuleGlob('C:/Users/**', { nocase: true, windows: true }).absolute).toBe(true);
    expect(['/etc/hosts', '/etc', '/x/etc/hosts'].map(matcher('/etc'))).toEqual([true, true, false]);
  });

  it('compares case only where the path policy does (Windows)', () => {
    expect(matcher('*.LOCK')('a.lock')).toBe(false);
    expect(matcher('*.LOCK', { nocase: true, windows: true })('a.lock')).toBe(true);
    expect(matcher('C:/Work/**', { nocase: true, windows: true })('c:/work/a.ts')).toBe(true);
  });
});
