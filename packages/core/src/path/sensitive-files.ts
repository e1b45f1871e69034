import { statSync } from 'node:fs';
import { holdsPrivateKey } from './private-key.js';
import { createSensitiveNameTest, type SensitiveNameTest } from './sensitive.js';

/** Options a stat needs here: a missing file is `undefined`, not an exception. */
const STAT_OPTIONS = { throwIfNoEntry: false } as const;

/**
 * docs/paths.md#sensitive-files for one runtime: the built-in table and the host's patterns judge every name a file
 * goes by, and a `*.pem` is sensitive when it holds a private key.
 *
 * Synchronous on purpose: Grep judges each file ripgrep lists inside a synchronous loop, and every tool asks before
 * it reads. The cost for an ordinary name is nothing on disk; only a `private-key` name reads the file.
 */
export class SensitiveFiles {
  private readonly nameTest: SensitiveNameTest;

  constructor(extraPatterns: readonly string[], platform: NodeJS.Platform) {
    this.nameTest = createSensitiveNameTest(extraPatterns, platform);
  }

  /** Whether the file known by `names` (the name the model used, its real path...) and found at `onDisk` is sensitive. */
  isSensitive(names: readonly string[], onDisk: string): boolean {
    let keyCheck = false;
    for (const name of names) {
      const verdict = this.nameTest(name);
      if (verdict === 'sensitive') return true;
      if (verdict === 'private-key') keyCheck = true;
    }
    if (!keyCheck) return false;
    let isFile: boolean;
    try {
      isFile = statSync(onDisk, STAT_OPTIONS)?.isFile() ?? false;
    } catch {
      // Cannot be looked at (a parent not searchable, a link loop): a `.pem` stays refused.
      return true;
    }
    return isFile && holdsPrivateKey(onDisk);
  }
}
