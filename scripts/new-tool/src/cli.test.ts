import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { test as inRepositoryCopy } from './__fixtures__/repository-copy.js';
import { runCli, USAGE } from './cli.js';
import { REPOSITORY_ROOT } from './repository.js';

const ROOT_MANIFEST = path.join(REPOSITORY_ROOT, 'package.json');
const { packageManager } = JSON.parse(readFileSync(ROOT_MANIFEST, 'utf8')) as { packageManager: string };
/** The pnpm the repository pins, as its next steps must call it. */
const PINNED_PNPM = `npx -y ${packageManager}`;

/** Runs the CLI against a root it must never reach (every case here stops before writing). */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, '/nonexistent-root', {
    out: (text) => (out += text),
    err: (text) => (err += text),
  });
  return { code, out, err };
}

describe('pnpm new-tool', () => {
  test('--help prints the usage', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: USAGE, err: '' });
  });

  test('says what is wrong, then the usage, and exits 1', async () => {
    expect(await run([])).toEqual({ code: 1, out: '', err: `new-tool: Give the package name.\n\n${USAGE}` });
    expect((await run(['a', 'b'])).err).toMatch(/^new-tool: One name only, got: a b\.\n/);
    expect((await run(['a', '--class'])).err).toMatch(/^new-tool: Unknown option '--class'/);
    expect((await run(['Not_Kebab'])).err).toMatch(
      /^new-tool: Invalid package name "Not_Kebab": use kebab-case/,
    );
  });

  inRepositoryCopy(
    'says what it made, every file it names there, then the next steps with the names filled in',
    async ({ repo }) => {
      let out = '';
      const code = await runCli(['file-facts', '--tool-name', 'FileFacts'], repo, {
        out: (text) => (out += text),
        err: (text) => (out += text),
      });
      expect(code).toBe(0);
      const [first, ...rest] = out.split('\n');
      expect(first).toBe('Created @kimi-tools/file-facts: class FileFacts, tool FileFacts.');
      const blank = rest.indexOf('');
      const files = rest.slice(0, blank);
      expect(files.length).toBeGreaterThan(5);
      for (const line of files) {
        const [, file] = /^ {2}(?:created|updated) (.+)$/.exec(line) ?? [];
        expect(file !== undefined && existsSync(path.join(repo, file)), line).toBe(true);
      }
      expect(rest.slice(blank + 1)).toEqual([
        'Next (CONTRIBUTING.md, "Add a tool package"):',
        `  ${PINNED_PNPM} install            # links the new package; commit pnpm-lock.yaml`,
        `  ${PINNED_PNPM} turbo run lint typecheck test build check:package --filter=@kimi-tools/file-facts`,
        '  then make the sample tool yours: src/file-facts.ts, its tests, README.md, docs/file-facts.md,',
        '  run its README Usage in a test of apps/readme-snippets, and pass pnpm run ci (CONTRIBUTING.md, steps 2 to 6).',
      ]);
    },
  );
});
