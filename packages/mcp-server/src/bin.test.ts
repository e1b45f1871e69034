import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${PACKAGE_DIR}/package.json`, 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
};

// pnpm links a workspace dependency's commands at install, before any build: a command in `dist/` cannot be linked on
// a fresh clone, and every install warned `Failed to create bin at .../kimi-tools-mcp` (issue 29.13).
it('kimi-tools-mcp is a file of the package, there before a build, and published', () => {
  const command = manifest.bin['kimi-tools-mcp'] ?? '';
  expect(command).toBe('./bin/kimi-tools-mcp.js');
  expect(existsSync(`${PACKAGE_DIR}/${command}`)).toBe(true);
  expect(manifest.files).toContain('bin');
  const text = readFileSync(`${PACKAGE_DIR}/${command}`, 'utf8');
  expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
  expect(text).toContain("import '../dist/cli.js';");
});
