/**
 * The languages TypeScript's parser checks. Kept apart from the parser itself so that asking whether a file is a
 * script does not load `typescript` (about 0.9 s of CPU at a process's start): it is imported on the first check.
 */
export const SCRIPT_LANGUAGES = ['typescript', 'tsx', 'javascript', 'jsx'] as const;

/** A language TypeScript's parser checks. */
export type ScriptLanguage = (typeof SCRIPT_LANGUAGES)[number];

/** Whether `language` is one TypeScript's parser checks. */
export function isScript(language: string): language is ScriptLanguage {
  return (SCRIPT_LANGUAGES as readonly string[]).includes(language);
}
