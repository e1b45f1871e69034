/** The directories a script can name without knowing where this run put them. */
export interface Placeholders {
  /** `{{workdir}}`: the work dir (the sample copy, or `--workdir`). */
  workdir: string;
  /** `{{outside}}`: an empty temporary directory outside the workspace, for writes that need EDIT_OUTSIDE. */
  outside: string;
}

const PLACEHOLDER = /\{\{(workdir|outside)\}\}/g;

/** Replaces `{{workdir}}` and `{{outside}}` in plain text (expectation paths). */
export function fillPlaceholders(text: string, values: Placeholders): string {
  return text.replace(PLACEHOLDER, (_, name: keyof Placeholders) => values[name]);
}

/**
 * Replaces the placeholders in the JSON text of a call's arguments, escaping the values as JSON string content,
 * so a Windows path with backslashes still makes valid JSON.
 */
export function fillPlaceholdersInJson(jsonText: string, values: Placeholders): string {
  return jsonText.replace(PLACEHOLDER, (_, name: keyof Placeholders) =>
    JSON.stringify(values[name]).slice(1, -1),
  );
}
