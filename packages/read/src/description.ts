import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES, MAX_TAIL_LINES } from './limits.js';
import template from './read-file.md';

const VALUES: Record<string, string> = {
  MAX_LINES: String(MAX_LINES),
  MAX_LINE_LENGTH: String(MAX_LINE_LENGTH),
  MAX_BYTES: String(MAX_BYTES),
  MAX_TAIL_LINES: String(MAX_TAIL_LINES),
};

/** The ReadFile description, its limits filled in. */
export function renderDescription(): string {
  return template.trim().replace(/\$\{(\w+)\}/g, (placeholder, name: string) => {
    const value = VALUES[name];
    if (value === undefined) throw new Error(`read-file.md: unknown placeholder ${placeholder}`);
    return value;
  });
}
