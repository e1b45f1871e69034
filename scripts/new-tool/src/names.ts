import { Refusal } from './refusal.js';

/** Every name a generated package uses, derived from its directory name unless overridden. */
export interface ToolNames {
  /** The package directory under `packages/`, kebab-case: `line-count`. */
  name: string;
  /** The npm name: `@kimi-tools/line-count`. */
  packageName: string;
  /** The tool class: `LineCount`. */
  ClassName: string;
  /** The name the model calls: `LineCount` (the class name unless overridden). */
  toolName: string;
  /** Base name of the tool's source files: `line-count` (from the class name, as `read-file.ts` for `ReadFile`). */
  fileName: string;
  /** The contract page under `docs/`: `line-count.md` (from the tool name, as `read-file.md` for `ReadFile`). */
  docsPage: string;
}

/** What the person asked for: a package name and, optionally, the class and tool names. */
export interface NameRequest {
  name: string;
  className?: string | undefined;
  toolName?: string | undefined;
}

const SCOPE = '@kimi-tools/';
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
// What function-calling APIs accept as a tool name.
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MAX_NAME_LENGTH = 64;

/** `line-count` → `LineCount`. */
export function pascalCase(kebab: string): string {
  return kebab
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** `ReadFile` → `read-file`, `HTTPGet` → `http-get`, `grep_files` → `grep-files`. */
export function kebabCase(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

function check(value: string, pattern: RegExp, refusal: string): void {
  if (value.length > MAX_NAME_LENGTH || !pattern.test(value)) throw new Refusal(refusal);
}

/**
 * The class name when none is given: the tool name when there is one (`NotebookEdit`, or `grep_files` as
 * `GrepFiles`), so `new-tool notebook --tool-name NotebookEdit` makes class `NotebookEdit`; else the package name's.
 */
function defaultClassName(name: string, toolName: string | undefined): string {
  if (toolName === undefined) return pascalCase(name);
  return PASCAL.test(toolName) ? toolName : pascalCase(kebabCase(toolName));
}

/** Checks the request and derives every name; throws a {@link Refusal} saying what to change. */
export function deriveNames(request: NameRequest): ToolNames {
  const { name } = request;
  check(
    name,
    KEBAB,
    `Invalid package name "${name}": use kebab-case (lowercase letters and digits in words joined by single ` +
      `hyphens, starting with a letter, at most ${MAX_NAME_LENGTH} characters), e.g. line-count.`,
  );
  const toolNameRefusal = (value: string): string =>
    `Invalid tool name "${value}": start with a letter, then letters, digits, "_" or "-", at most ` +
    `${MAX_NAME_LENGTH} characters, e.g. LineCount.`;
  // A given tool name is checked first: the class name may be derived from it.
  if (request.toolName !== undefined) check(request.toolName, TOOL_NAME, toolNameRefusal(request.toolName));
  const ClassName = request.className ?? defaultClassName(name, request.toolName);
  check(
    ClassName,
    PASCAL,
    `Invalid class name "${ClassName}": use PascalCase (a capital letter, then letters and digits, at most ` +
      `${MAX_NAME_LENGTH} characters), e.g. LineCount.`,
  );
  const toolName = request.toolName ?? ClassName;
  return {
    name,
    packageName: `${SCOPE}${name}`,
    ClassName,
    toolName,
    fileName: kebabCase(ClassName),
    docsPage: `${kebabCase(toolName)}.md`,
  };
}

/** The identifiers the generated code declares from the class name (they must not clash with the template's own). */
export function derivedIdentifiers(names: ToolNames): string[] {
  const { ClassName } = names;
  return ['', 'Params', 'Options', 'Brief', 'Briefs', 'Facts'].map((suffix) => `${ClassName}${suffix}`);
}
