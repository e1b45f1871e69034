import { Language, Parser, type Node } from 'web-tree-sitter';
import type { Problem } from '../problem.js';
import { grammarFile, type GrammarLanguage } from './grammar-files.js';

/** What a tree-sitter parse found: problems, or that it ran out of time. */
export type TreeSitterOutcome = { kind: 'parsed'; problems: Problem[] } | { kind: 'timed out' };

/** The longest snippet of unexpected text quoted in a message. */
const SNIPPET_MAX_CHARS = 24;

/**
 * The grammars one runtime has loaded, each loaded on first use (tens of milliseconds) and kept: a grammar that fails
 * to load is retried on the next check.
 */
export class TreeSitterParsers {
  private ready: Promise<void> | undefined;
  private readonly languages = new Map<GrammarLanguage, Promise<Language>>();

  /** Syntax errors of `text`; a parse that runs past `budgetMs` is abandoned. */
  async problems(text: string, language: GrammarLanguage, budgetMs: number): Promise<TreeSitterOutcome> {
    const grammar = await this.language(language);
    const parser = new Parser();
    try {
      parser.setLanguage(grammar);
      const deadline = performance.now() + budgetMs;
      // Returning true cancels the parse (the declared type says void; the runtime reads the value).
      const progressCallback = (() => performance.now() > deadline) as unknown as () => void;
      const tree = parser.parse(text, null, { progressCallback });
      if (!tree) return { kind: 'timed out' };
      try {
        return { kind: 'parsed', problems: treeProblems(tree.rootNode) };
      } finally {
        tree.delete();
      }
    } finally {
      parser.delete();
    }
  }

  private language(language: GrammarLanguage): Promise<Language> {
    let loading = this.languages.get(language);
    if (!loading) {
      this.ready ??= Parser.init().catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
      loading = this.ready.then(() => Language.load(grammarFile(language)));
      loading.catch(() => this.languages.delete(language));
      this.languages.set(language, loading);
    }
    return loading;
  }
}

/** Every ERROR and MISSING node: an error's subtree is one problem, not one per node inside it. */
function treeProblems(root: Node): Problem[] {
  const problems: Problem[] = [];
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const place = { line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
    if (node.isMissing) {
      problems.push({
        ...place,
        severity: 'error',
        message: `Missing ${node.type}`,
        key: `missing:${node.type}`,
      });
    } else if (node.isError) {
      problems.push({ ...place, severity: 'error', message: syntaxErrorMessage(node), key: 'syntax' });
    } else if (node.hasError) {
      for (const child of node.children) if (child) pending.push(child);
    }
  }
  return problems;
}

/** `Syntax error near "def f(:"`, quoting the start of the unexpected text on its first line. */
function syntaxErrorMessage(node: Node): string {
  const line = node.text.split('\n', 1)[0]!.trim();
  if (line === '') return 'Syntax error';
  const snippet = line.length > SNIPPET_MAX_CHARS ? `${line.slice(0, SNIPPET_MAX_CHARS)}…` : line;
  return `Syntax error near ${JSON.stringify(snippet)}`;
}
