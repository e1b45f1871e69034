import { parseAllDocuments } from 'yaml';
import { firstLine, type Problem } from '../problem.js';
import { positionAt } from './line-starts.js';

/** Syntax errors (and warnings) of a YAML stream, every document of it. */
export function yamlProblems(text: string): Problem[] {
  const problems: Problem[] = [];
  const at = positionAt(text);
  // Plain messages: the pretty ones quote the source, which may hold a secret.
  const parsed = parseAllDocuments(text, { prettyErrors: false });
  const documents = Array.isArray(parsed) ? parsed : [parsed];
  for (const document of documents) {
    for (const [issues, severity] of [
      [document.errors, 'error'],
      [document.warnings, 'warning'],
    ] as const) {
      for (const issue of issues) {
        problems.push({
          ...at(issue.pos[0]),
          severity,
          message: firstLine(issue.message),
          key: `yaml:${issue.code}:${firstLine(issue.message)}`,
        });
      }
    }
  }
  return problems;
}
