// The reference of the StrReplaceFile benchmark, as small as the job gets in Node: read the file as UTF-8, check the
// match is unique, replace it, write the file back (no temp file, no fsync).
// Usage: str-replace-reference.ts FILE OLD NEW
import { readFileSync, writeFileSync } from 'node:fs';

const [file, oldText, newText] = process.argv.slice(2);
if (file === undefined || oldText === undefined || newText === undefined) {
  throw new Error('usage: str-replace-reference.ts FILE OLD NEW');
}
const text = readFileSync(file, 'utf8');
const at = text.indexOf(oldText);
if (at === -1 || text.indexOf(oldText, at + 1) !== -1) throw new Error('no unique match');
writeFileSync(file, text.slice(0, at) + newText + text.slice(at + oldText.length));
