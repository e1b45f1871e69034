import { permissionsLineMessage } from '../errors.js';
import { parseRule } from './parse-rule.js';

/**
 * The rules of a permissions file (docs/permissions.md#permissions-files; `.kimi-tools/permissions` by convention),
 * each as written, ready for `createRuntime({ permissions })`: one rule per line in the string form, blank lines and
 * lines starting with `#` left out, surrounding spaces trimmed. Throws on the first invalid rule, with its line
 * number: ``line 3: invalid permission rule `allow Edit()`: ...``.
 */
export function parsePermissions(text: string): string[] {
  const rules: string[] = [];
  // A file saved on Windows ends its lines with CRLF; a lone CR is no line break here (and is refused as a control
  // character inside a rule).
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const rule = line.trim();
    if (rule === '' || rule.startsWith('#')) continue;
    const parsed = parseRule(rule);
    if (!parsed.ok) throw new Error(permissionsLineMessage(index + 1, parsed.message));
    rules.push(rule);
  }
  return rules;
}
