import fs from 'node:fs/promises';
import { parsePermissions } from '@kimi-tools/core';
import { errorText } from '@kimi-tools/core/toolkit';
import { invalidPermissionsFileMessage, unreadableStatMessage } from './errors.js';

/**
 * The rules of a `--permissions` file (docs/permissions.md#permissions-files), or the command-line error that says why
 * it cannot be used: it cannot be read, or a rule is invalid (with its line number).
 */
export async function readPermissionsFile(file: string): Promise<{ rules: string[] } | { error: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return { error: unreadableStatMessage('--permissions', file, errorText(error)) };
  }
  try {
    return { rules: parsePermissions(text) };
  } catch (error) {
    return { error: invalidPermissionsFileMessage(file, errorText(error)) };
  }
}
