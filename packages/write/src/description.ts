import template from './write-file.md';

const READ_FIRST =
  'Before you overwrite an existing file, read it with ReadFile in this session; if it changed since you read it, ' +
  'read it again. Creating a new file or appending needs no prior read.';

/**
 * The WriteFile description the model reads. `${NAME}` placeholders are filled in; a bullet whose placeholder is
 * empty is left out (the read-first tip appears only when the runtime enforces it).
 */
export function renderDescription(readBeforeWrite: boolean): string {
  const values: Record<string, string> = { READ_FIRST: readBeforeWrite ? READ_FIRST : '' };
  const valueOf = (placeholder: string, name: string): string => {
    const value = values[name];
    if (value === undefined) throw new Error(`write-file.md: unknown placeholder ${placeholder}`);
    return value;
  };
  return template
    .replace(/^- (\$\{(\w+)\})\n/gm, (line, placeholder: string, name: string) => {
      const value = valueOf(placeholder, name);
      return value ? `- ${value}\n` : '';
    })
    .replace(/\$\{(\w+)\}/g, valueOf)
    .trim();
}
