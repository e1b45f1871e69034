import { localFileSystem } from '@kimi-tools/core/fs';
import { describe, expect, it } from 'vitest';
import { findRipgrep, ripgrepCommand } from './ripgrep-binary.js';

describe('the bundled ripgrep', () => {
  it('is the binary @vscode/ripgrep names, found beside the package without importing it', async () => {
    const { rgPath } = await import('@vscode/ripgrep');
    expect(await findRipgrep(undefined)).toBe(rgPath);
    expect(await ripgrepCommand(localFileSystem, undefined)).toBe(rgPath);
  });
});
