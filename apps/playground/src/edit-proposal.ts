import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalRequest } from '@kimi-tools/core';

/** One change the scripted user makes to a proposal before accepting it (a script step's `edit`). */
export interface ScriptedEdit {
  /** The file whose proposal is edited (placeholders allowed, relative to the work dir); the only one when left out. */
  path?: string;
  /** Text of the proposal, replaced where it first stands. */
  old: string;
  /** What the user writes instead. */
  new: string;
}

/** The user's content by real path (an answer's `content`), or why there is none. */
export type EditedContent = { content: Record<string, string> } | { error: string };

/** The real path of `file`, or of its directory with its name when it does not exist yet (a file being created). */
async function realPathOf(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch {
    try {
      return path.join(await fs.realpath(path.dirname(file)), path.basename(file));
    } catch {
      return file;
    }
  }
}

/**
 * The scripted edits applied to the proposals of the request's editable files. `resolve` turns a script's path into
 * an absolute one (placeholders, work dir).
 */
export async function scriptedContent(
  request: ApprovalRequest,
  edits: readonly ScriptedEdit[],
  resolve: (file: string) => string,
): Promise<EditedContent> {
  const editable = request.editable ?? [];
  const content: Record<string, string> = {};
  for (const edit of edits) {
    let target = editable[0];
    if (edit.path !== undefined) {
      const real = await realPathOf(resolve(edit.path));
      target = editable.find((file) => file.path === real);
      if (target === undefined) return { error: `${edit.path} is not a file this change writes` };
    } else if (editable.length !== 1) {
      return { error: `the change writes ${editable.length} files: give each edit a "path"` };
    }
    if (target === undefined) return { error: 'the change has no content to edit' };
    const text = content[target.path] ?? target.proposedText();
    const at = text.indexOf(edit.old);
    if (at === -1) return { error: `${JSON.stringify(edit.old)} is not in the proposal` };
    content[target.path] = text.slice(0, at) + edit.new + text.slice(at + edit.old.length);
  }
  return { content };
}

/** `file` quoted for the shell that runs the editor command. */
function shellQuoted(file: string): string {
  return process.platform === 'win32' ? `"${file}"` : `'${file.replace(/'/g, `'\\''`)}'`;
}

/** Runs `command FILE` in a shell on the terminal (so `code --wait` works) and resolves to its exit status. */
function runEditor(command: string, file: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${command} ${shellQuoted(file)}`, { shell: true, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (status) => resolve(status));
  });
}

/**
 * Opens the proposal of each editable file in `editor` (`$VISUAL` or `$EDITOR`), one after the other, in a temporary
 * file named like the file, and reads back what the user saved. An editor that fails (non-zero exit) cancels.
 */
export async function editorContent(
  request: ApprovalRequest,
  editor: string,
  showPath: (realPath: string) => string,
): Promise<EditedContent> {
  const editable = request.editable ?? [];
  if (editable.length === 0) return { error: 'the change has no content to edit' };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-playground-edit-'));
  try {
    const content: Record<string, string> = {};
    for (const [index, file] of editable.entries()) {
      const draft = path.join(dir, `${index}-${path.basename(file.path)}`);
      await fs.writeFile(draft, file.proposedText());
      const status = await runEditor(editor, draft);
      if (status !== 0) return { error: `${editor} exited with status ${status} on ${showPath(file.path)}` };
      content[file.path] = await fs.readFile(draft, 'utf8');
    }
    return { content };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
