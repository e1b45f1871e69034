import ts from 'typescript';
import { commonEnds } from '../compare/common-ends.js';
import type { Problem } from '../problem.js';
import { positionAt } from './line-starts.js';
import type { ScriptLanguage } from './script-languages.js';

/** The script kinds TypeScript's parser takes, by language id. */
const SCRIPT_KINDS: Readonly<Record<ScriptLanguage, ts.ScriptKind>> = {
  typescript: ts.ScriptKind.TS,
  tsx: ts.ScriptKind.TSX,
  javascript: ts.ScriptKind.JS,
  jsx: ts.ScriptKind.JSX,
};

/** A top-level statement: from its full start (leading comments included) to its end. */
interface Span {
  readonly pos: number;
  readonly end: number;
  /**
   * Whether `await` appears in it outside a function body. In a module TypeScript parses the statements where it
   * first read `await` as a name once more, as the operator, and the errors elsewhere in the file may change with
   * that: no window can be trusted then.
   */
  readonly topLevelAwait: boolean;
}

/** A syntax error where TypeScript reports it, by offset in the text. */
interface ScriptError {
  readonly offset: number;
  readonly severity: Problem['severity'];
  readonly message: string;
  readonly code: number;
}

/**
 * What is kept of a checked script for the next edit of the same file: where its top-level statements lie and its
 * errors. An edit then parses only the statements it touched (see {@link checkScript}); no syntax tree is kept.
 */
export interface ScriptOutline {
  readonly language: ScriptLanguage;
  readonly text: string;
  readonly statements: readonly Span[];
  readonly errors: readonly ScriptError[];
  /**
   * TypeScript's tree of the last text parsed whole (windows leave it as it was): the whole parses after it are
   * incremental, a few times faster than a fresh parse on a large file.
   */
  readonly tree: ts.SourceFile;
}

/** Unchanged statements parsed again on each side of the ones an edit touched: they show the parse re-aligned. */
const ANCHORS = 2;

/**
 * The syntax errors of `text` and its outline. When the file was free of syntax errors before the change
 * (`previous`, same language), only the top-level statements the change touched are parsed, between unchanged anchor
 * statements on each side; if that window parses without errors and the anchors come out of it as before, the file
 * is still free of them. TypeScript's own incremental reparse shifts every node after the change (19 ms a change on
 * a 1 MB file, against about 2 ms here). Anything else parses the whole file (incrementally from its last whole
 * parse): a file with errors (a statement with an
 * error may have looked ahead arbitrarily far, and errors may sit at the end of the file), a change that brings
 * errors (reported as the whole parse places them), anchors that moved, and `await` outside a function body in the
 * file before or after (TypeScript parses such a module twice). A fixed-seed property test holds the window to
 * whole-file parses.
 */
export function checkScript(
  fileName: string,
  text: string,
  language: ScriptLanguage,
  previous: ScriptOutline | undefined,
): { outline: ScriptOutline; problems: Problem[] } {
  const outline =
    (previous && previous.language === language && reparseWindow(fileName, text, previous)) ||
    parseWhole(fileName, text, language, previous?.language === language ? previous.tree : undefined);
  return { outline, problems: toProblems(text, outline.errors) };
}

function parseWhole(
  fileName: string,
  text: string,
  language: ScriptLanguage,
  previousTree: ts.SourceFile | undefined,
): ScriptOutline {
  const sourceFile = previousTree
    ? ts.updateSourceFile(previousTree, text, changedRange(previousTree.text, text))
    : parse(fileName, text, language);
  return {
    language,
    text,
    statements: sourceFile.statements.map((statement) => spanOf(statement)),
    errors: syntaxErrors(sourceFile),
    tree: sourceFile,
  };
}

/** The span of `before` that `after` replaces: what lies between their common start and their common end. */
function changedRange(before: string, after: string): ts.TextChangeRange {
  const { start, end } = commonEnds(before, after);
  return ts.createTextChangeRange(
    ts.createTextSpan(start, before.length - end - start),
    after.length - end - start,
  );
}

/**
 * The outline of `text`, still free of syntax errors, from the statements the change touched; undefined when the
 * window cannot vouch for that (exported for its property test).
 */
export function reparseWindow(
  fileName: string,
  text: string,
  previous: ScriptOutline,
): ScriptOutline | undefined {
  if (previous.errors.length > 0 || previous.statements.some((span) => span.topLevelAwait)) return undefined;
  const before = previous.text;
  const { start, end } = commonEnds(before, text);
  const changeEnd = before.length - end;
  const delta = text.length - before.length;
  const statements = previous.statements;
  // The last statement wholly before the change and the first wholly after it, then the anchors beyond them.
  let firstTouched = 0;
  while (firstTouched < statements.length && statements[firstTouched]!.end < start) firstTouched += 1;
  let afterTouched = firstTouched;
  while (afterTouched < statements.length && statements[afterTouched]!.pos <= changeEnd) afterTouched += 1;
  const low = firstTouched - ANCHORS;
  const high = afterTouched + ANCHORS;
  const windowStart = low >= 0 ? statements[low]!.pos : 0;
  const windowEnd = high <= statements.length ? statements[high - 1]!.end + delta : text.length;
  const windowText = text.slice(windowStart, windowEnd);
  // A `#!` line is only a comment at the very start of a file.
  if (windowStart > 0 && windowText.startsWith('#!')) return undefined;

  const anchorsBefore = low >= 0 ? statements.slice(low, firstTouched) : [];
  const anchorsAfter = high <= statements.length ? statements.slice(afterTouched, high) : [];

  const sourceFile = parse(fileName, windowText, previous.language);
  const parsed = sourceFile.statements.map((statement) => spanOf(statement, windowStart));
  // The anchors must come out of the window as the same statements, at the same places.
  const expectedAfter = anchorsAfter.map((span) => moved(span, delta));
  if (parsed.length < anchorsBefore.length + expectedAfter.length) return undefined;
  const sameSpans = (got: readonly Span[], want: readonly Span[]) =>
    got.every((span, index) => span.pos === want[index]!.pos && span.end === want[index]!.end);
  if (!sameSpans(parsed.slice(0, anchorsBefore.length), anchorsBefore)) return undefined;
  if (!sameSpans(parsed.slice(parsed.length - expectedAfter.length), expectedAfter)) return undefined;
  if (parsed.some((span) => span.topLevelAwait)) return undefined;
  if (syntaxErrors(sourceFile).length > 0) return undefined;

  return {
    language: previous.language,
    text,
    statements: [
      ...statements.slice(0, Math.max(low, 0)),
      ...parsed,
      ...statements.slice(Math.min(high, statements.length)).map((span) => moved(span, delta)),
    ],
    errors: [],
    tree: previous.tree,
  };
}

function parse(fileName: string, text: string, language: ScriptLanguage): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, SCRIPT_KINDS[language]);
}

/** The syntax errors of a parsed file, as TypeScript reports them (JavaScript files also get the TS-only syntax). */
function syntaxErrors(sourceFile: ts.SourceFile): ScriptError[] {
  // A program of this one file, with nothing to resolve: the public way to the parser's diagnostics.
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === sourceFile.fileName ? sourceFile : undefined),
    getDefaultLibFileName: () => 'lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === sourceFile.fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({
    rootNames: [sourceFile.fileName],
    options: { noLib: true, noResolve: true, types: [], allowJs: true },
    host,
  });
  return program.getSyntacticDiagnostics(sourceFile).map((diagnostic) => ({
    offset: diagnostic.start ?? 0,
    severity: diagnostic.category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
    code: diagnostic.code,
  }));
}

function spanOf(statement: ts.Statement, offset = 0): Span {
  return {
    pos: statement.pos + offset,
    end: statement.end + offset,
    topLevelAwait: hasTopLevelAwait(statement),
  };
}

function moved(span: Span, delta: number): Span {
  return { ...span, pos: span.pos + delta, end: span.end + delta };
}

/** `await`, as a name or the operator, outside function bodies (a function's parameters count: TypeScript's do). */
function hasTopLevelAwait(node: ts.Node): boolean {
  if ((ts.isIdentifier(node) && node.text === 'await') || ts.isAwaitExpression(node)) return true;
  const body = ts.isFunctionLike(node) && 'body' in node ? node.body : undefined;
  return ts.forEachChild(node, (child) => child !== body && hasTopLevelAwait(child)) ?? false;
}

/** TypeScript's line breaks: a line ends at `\r\n`, `\n`, `\r`, U+2028 or U+2029. */
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/g;

function toProblems(text: string, errors: readonly ScriptError[]): Problem[] {
  if (errors.length === 0) return [];
  const position = positionAt(text, LINE_BREAK);
  return errors.map(({ offset, severity, message, code }) => ({
    ...position(offset),
    severity,
    message,
    key: `ts${code}:${message}`,
  }));
}
