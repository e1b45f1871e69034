import type { ToolRuntime } from '@kimi-tools/core';
import type { DirEntry } from '@kimi-tools/core/fs';
import {
  escapeForDisplay,
  hiddenFromListing,
  IGNORE_FILE_NAMES,
  isDescriptorShortage,
  ignoredEntryTest,
  levelForDirectory,
  loadAncestorIgnoreLevels,
  loadIgnoreRules,
  pathApiFor,
  retryOnDescriptorShortage,
  workspaceRootOf,
  type IgnoreLevel,
  type RuledTool,
} from '@kimi-tools/core/toolkit';
import { DIRECTORY_LISTING_MAX_ENTRIES } from './limits.js';

/** What a directory holds, as the listing shows it: the first names (sorted), and how many more there are. */
export interface DirectoryListing {
  names: string[];
  more: number;
}

/** The ignore rules that apply to `directory`'s entries: its ancestors' (as Glob applies them), then its own. */
async function ignoreLevels(runtime: ToolRuntime, directory: string): Promise<IgnoreLevel[]> {
  const { fs } = runtime;
  const levels = await loadAncestorIgnoreLevels(fs, directory, await workspaceRootOf(runtime, directory));
  const own = await loadIgnoreRules(fs, directory, IGNORE_FILE_NAMES);
  return own === null ? levels : [...levels, levelForDirectory(own, '')];
}

/**
 * The entries of `directory` (a real path) a model may want to open next: sorted by name, directories with a trailing
 * `/`, without version-control folders, `node_modules`, entries the ignore files ignore, entries the runtime's deny
 * globs refuse, and entries a `deny` permission rule hides from `tool` (docs/permissions.md#reads). `undefined` when
 * the directory cannot be read.
 */
export async function listDirectory(
  runtime: ToolRuntime,
  tool: RuledTool,
  directory: string,
): Promise<DirectoryListing | undefined> {
  let entries: DirEntry[];
  try {
    entries = await retryOnDescriptorShortage(() => runtime.fs.readdir(directory));
  } catch {
    return undefined;
  }
  let levels: IgnoreLevel[];
  try {
    levels = await ignoreLevels(runtime, directory);
  } catch (error) {
    // Out of file descriptors past the retries: no listing rather than one that shows what ignore files hide.
    if (isDescriptorShortage(error)) return undefined;
    throw error;
  }
  const isIgnored = ignoredEntryTest('', levels);
  const hidden = await hiddenFromListing(runtime, tool);
  const separator = pathApiFor(runtime.fs.platform).sep;
  const names: string[] = [];
  for (const entry of entries) {
    const isDirectory = entry.isDirectory();
    if (isIgnored(entry.name, isDirectory)) continue;
    if (hidden?.(`${directory}${separator}${entry.name}`)) continue;
    names.push(escapeForDisplay(entry.name) + (isDirectory ? '/' : ''));
  }
  // Code-unit order: the same listing on every machine, whatever its locale.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    names: names.slice(0, DIRECTORY_LISTING_MAX_ENTRIES),
    more: Math.max(0, names.length - DIRECTORY_LISTING_MAX_ENTRIES),
  };
}

/** What follows `` `{path}` is not a file. `` for a directory (docs/read-file.md). */
export function directoryListingText(listing: DirectoryListing): string {
  if (listing.names.length === 0)
    return ' It is a directory with no entries to show. Use the Glob tool to find files.';
  const more = listing.more > 0 ? `\n... and ${listing.more} more` : '';
  return ` It is a directory holding:\n${listing.names.join('\n')}${more}\nUse the Glob tool to find files in it.`;
}
