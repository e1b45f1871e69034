import { realpath } from 'node:fs/promises';
import { localFileSystem } from '@kimi-tools/core/fs';
import { describe, expect, it } from 'vitest';
import { findRipgrep, ripgrepCommand } from './ripgrep-binary.js';

describe('the bundled ripgrep', () => {
  it('is the binary @vscode/ripgrep names, found beside the package without importing it', async () => {
    const { rgPath } = await import('@vscode/ripgrep');
    // The same file: ours is its real path, the package's the one Node's resolver gave it, which a pnpm install's
    // links may leave unresolved (one CI run here got `.pnpm/@vscode+ripgrep@1.18.0/node_modules/...`).
    const binary = await realpath(rgPath);
    const found = await findRipgrep(undefined);
    expect(found && (await realpath(found))).toBe(binary);
    const command = await ripgrepCommand(localFileSystem, undefined);
    expect(command && (await realpath(command))).toBe(binary);
  });
});
