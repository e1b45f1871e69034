// Checks each `language=text` argument with one ParserChecker, prints the problems found per check, and marks on
// stderr where each check ends, for a test that watches when modules are loaded (NODE_DEBUG writes to stderr).
import { ParserChecker } from '../parser-checker.js';

const checker = new ParserChecker();
const found: number[] = [];
for (const argument of process.argv.slice(2)) {
  const [language, text] = argument.split(/=(.*)/s) as [never, string];
  const outcome = await checker.check(`file.${language}`, text, language, 5000);
  found.push(outcome.kind === 'checked' ? outcome.problems.length : -1);
  process.stderr.write(`checked ${language}\n`);
}
console.log(JSON.stringify(found));
