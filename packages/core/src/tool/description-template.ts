import { unknownPlaceholderMessage } from '../errors.js';

/**
 * Renders a tool's Markdown description: every `${NAME}` is replaced by its value, and a bullet that is only a
 * placeholder (`- ${NAME}`) is left out when its value is empty, so optional advice disappears cleanly. An unknown
 * placeholder throws (naming `source`), so a typo in a description fails the first test that builds the tool.
 */
export function renderDescription(
  template: string,
  values: Readonly<Record<string, string | number>>,
  source: string,
): string {
  const valueOf = (placeholder: string, name: string): string => {
    const value = values[name];
    if (value === undefined) throw new Error(unknownPlaceholderMessage(source, placeholder));
    return String(value);
  };
  return template
    .replace(/^- (\$\{(\w+)\})\n/gm, (_line, placeholder: string, name: string) => {
      const value = valueOf(placeholder, name);
      return value ? `- ${value}\n` : '';
    })
    .replace(/\$\{(\w+)\}/g, valueOf)
    .trim();
}
