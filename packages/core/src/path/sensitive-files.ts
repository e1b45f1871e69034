import { hasErrno } from '../fs/errno.js';
import type { FileStats, FileSystem } from '../fs/file-system.js';
import { isWithinDirectory } from './containment.js';
import { LinkedNames } from './linked-names.js';
import { pathApiFor } from './platform-path.js';
import { holdsPrivateKey } from './private-key.js';
import {
  createSensitiveNameTest,
  USUAL_SENSITIVE_DIRS,
  type NameVerdict,
  type SensitiveNameTest,
} from './sensitive.js';

/** What {@link SensitiveFiles} needs to know of its runtime. */
export interface SensitiveFilesSettings {
  /** Where the files are. */
  fs: FileSystem;
  /** The host's patterns, added to the built-in table. */
  extraPatterns: readonly string[];
  platform: NodeJS.Platform;
  homeDir: string;
  /** The workspace directories as currently known (configured and real paths). */
  workspaceRoots: () => readonly string[];
}

/**
 * docs/paths.md#sensitive-files for one runtime: the built-in table and the host's patterns judge every name a file
 * goes by, a `*.pem` is sensitive when it holds a private key, and a file with several hard links is judged by its
 * other names too, where they can be found.
 *
 * Every tool asks before it reads, and Grep asks of every file it lists, many at once: an ordinary name costs one
 * `stat` (none where the backend has no link counts, or when the caller hands over the stats it took anyway); only a
 * file with several links lists directories (cached), and only a `private-key` name reads the file.
 */
export class SensitiveFiles {
  private readonly nameTest: SensitiveNameTest;
  private readonly linkedNames: LinkedNames;
  private readonly pathApi;

  constructor(private readonly settings: SensitiveFilesSettings) {
    this.nameTest = createSensitiveNameTest(settings.extraPatterns, settings.platform);
    this.pathApi = pathApiFor(settings.platform);
    this.linkedNames = new LinkedNames(
      settings.fs,
      (file) => this.nameTest(file) !== 'ordinary',
      this.pathApi,
    );
  }

  /**
   * Whether the file known by `names` (the name the model used, its real path...) and found at `onDisk` is sensitive.
   * `stats`: what `fs.stat(onDisk)` gave the caller just now, when it has them (`null`: nothing is there), so the
   * file is not looked at twice.
   */
  async isSensitive(names: readonly string[], onDisk: string, stats?: FileStats | null): Promise<boolean> {
    const known = this.knownVerdict(names, stats);
    if (known !== undefined) return known;
    let keyCheck = this.byNames(names) === 'private-key';
    if (stats === undefined) {
      try {
        stats = await this.settings.fs.stat(onDisk);
      } catch (error) {
        // Cannot be looked at (a parent not searchable, a link loop): a `.pem` stays refused.
        if (!hasErrno(error, 'ENOENT')) return keyCheck;
        stats = null;
      }
      const seen = this.knownVerdict(names, stats);
      if (seen !== undefined) return seen;
    }
    // Left: a file with several links, or with a private-key name.
    if (!stats?.isFile()) return false;
    if (stats.nlink !== undefined && stats.nlink > 1) {
      for (const other of await this.linkedNames.find(stats, this.linkSearchDirs(onDisk))) {
        const verdict = this.nameTest(other);
        if (verdict === 'sensitive') return true;
        if (verdict === 'private-key') keyCheck = true;
      }
    }
    return keyCheck && (await holdsPrivateKey(this.settings.fs, onDisk));
  }

  /**
   * {@link isSensitive}'s answer when the names and the stats given (`undefined`: none taken) decide it without the
   * file system; `undefined` when it must look: stats not taken on a backend with link counts, a file with several
   * links, a private-key name.
   */
  knownVerdict(names: readonly string[], stats: FileStats | null | undefined): boolean | undefined {
    const byNames = this.byNames(names);
    if (byNames === 'sensitive') return true;
    const keyCheck = byNames === 'private-key';
    // Without link counts a file's other names cannot be told, and an ordinary name needs no more.
    if (!keyCheck && !this.settings.fs.capabilities.linkCounts) return false;
    if (stats === undefined) return undefined;
    if (!stats?.isFile()) return false;
    if (stats.nlink !== undefined && stats.nlink > 1) return undefined;
    return keyCheck ? undefined : false;
  }

  /** The verdict of the name table on the names a file goes by: the worst of them. */
  private byNames(names: readonly string[]): NameVerdict {
    let verdict: NameVerdict = 'ordinary';
    for (const name of names) {
      const own = this.nameTest(name);
      if (own === 'sensitive') return own;
      if (own === 'private-key') verdict = own;
    }
    return verdict;
  }

  /**
   * Where the other names of a multiply-linked file are looked for: its directory and each one above it up to the
   * workspace directory holding it, and the usual places of the table's files (`.ssh`, `.aws`...) in each workspace
   * directory and in the home directory.
   */
  private linkSearchDirs(file: string): Set<string> {
    const { platform, homeDir } = this.settings;
    const roots = this.settings.workspaceRoots();
    const dirs = new Set<string>();
    let dir = this.pathApi.dirname(file);
    const root = roots.find((candidate) => isWithinDirectory(dir, candidate, platform));
    for (;;) {
      dirs.add(dir);
      const parent = this.pathApi.dirname(dir);
      if (root === undefined || parent === dir || !isWithinDirectory(parent, root, platform)) break;
      dir = parent;
    }
    for (const base of [...roots, homeDir]) {
      for (const usual of USUAL_SENSITIVE_DIRS) dirs.add(usual ? this.pathApi.join(base, usual) : base);
    }
    return dirs;
  }
}
