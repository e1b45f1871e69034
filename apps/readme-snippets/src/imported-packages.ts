import { builtinModules } from 'node:module';

/** The module specifiers of a snippet's imports: static, type-only, side-effect and dynamic ones, and re-exports. */
const IMPORT_SPECIFIERS =
  /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The npm package a specifier names (`@scope/name/sub` → `@scope/name`), or none for Node's own and relative ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const [first = '', second] = specifier.split('/');
  if (builtinModules.includes(first)) return undefined;
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** The npm packages a TypeScript snippet imports (its types included: they must be installed too), in order. */
export function importedPackages(code: string): string[] {
  const names = [...code.matchAll(IMPORT_SPECIFIERS)].map((match) => packageOf(match[1] ?? match[2] ?? ''));
  return [...new Set(names.filter((name) => name !== undefined))];
}
