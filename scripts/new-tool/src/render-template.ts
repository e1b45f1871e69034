/** The values a template may name: `{{ClassName}}` is replaced by `values.ClassName`. */
export type TemplateValues = Readonly<Record<string, string>>;

/**
 * Fills every `{{name}}` of a template. An unknown name throws (naming `source`), so a typo in a template fails the
 * generator's tests instead of reaching a generated package.
 */
export function renderTemplate(template: string, values: TemplateValues, source: string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder: string, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${source}: unknown placeholder ${placeholder}`);
    return value;
  });
}

const NAMED_IMPORTS = /import\s+(?:type\s+)?\{([^}]*)\}/g;
const DEFAULT_IMPORT = /import\s+([A-Za-z_$][\w$]*)\s+from/g;
const DECLARATION = /\b(?:const|let|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;

/**
 * The identifiers a TypeScript template imports or declares under a fixed name (`CallableTool`, `Briefs`,
 * `DEFAULT_MAX_BYTES`...): a class name whose derived identifiers hit one of them would not compile.
 */
export function fixedIdentifiers(template: string): Set<string> {
  const found = new Set<string>();
  for (const [, list = ''] of template.matchAll(NAMED_IMPORTS)) {
    for (const entry of list.split(',')) {
      const local = entry
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (local) found.add(local);
    }
  }
  for (const pattern of [DEFAULT_IMPORT, DECLARATION]) {
    for (const [, identifier = ''] of template.matchAll(pattern)) found.add(identifier);
  }
  return found;
}
