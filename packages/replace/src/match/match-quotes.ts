const LEFT_SINGLE = '\u2018';
const RIGHT_SINGLE = '\u2019';
const LEFT_DOUBLE = '\u201C';
const RIGHT_DOUBLE = '\u201D';

const CURLY_QUOTES = /[\u2018\u2019\u201C\u201D]/g;

/** Whether `text` contains a curly quote (‘ ’ “ ”). */
export function hasCurlyQuotes(text: string): boolean {
  return /[\u2018\u2019\u201C\u201D]/.test(text);
}

/** Curly quotes become straight ones, one character for one, so offsets stay valid. */
export function straightenQuotes(text: string): string {
  if (!hasCurlyQuotes(text)) return text;
  return text.replace(CURLY_QUOTES, (quote) => (quote === LEFT_DOUBLE || quote === RIGHT_DOUBLE ? '"' : "'"));
}

/** Letters and digits of any script. */
function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}]/u.test(character);
}

/**
 * A straight quote opens when nothing, whitespace or an opening bracket/dash/quote comes before it;
 * otherwise it closes.
 */
function opensAt(text: string, index: number): boolean {
  if (index === 0) return true;
  return /[\s([{\u2014\u2013\-\u2018\u201C"']/u.test(text.charAt(index - 1));
}

type QuoteClass = 'double' | 'apostrophe' | 'single';

const QUOTE_CLASSES: readonly QuoteClass[] = ['double', 'apostrophe', 'single'];

/** Double quote, apostrophe (a single quote between two letters), or another single quote; `undefined` if none. */
function quoteClassAt(text: string, index: number): QuoteClass | undefined {
  const character = text.charAt(index);
  if (character === '"' || character === LEFT_DOUBLE || character === RIGHT_DOUBLE) return 'double';
  if (character !== "'" && character !== LEFT_SINGLE && character !== RIGHT_SINGLE) return undefined;
  return isWordCharacter(text[index - 1]) && isWordCharacter(text[index + 1]) ? 'apostrophe' : 'single';
}

/**
 * The quote classes to curl in the replacement: those `matched` writes curly and never straight. Apostrophes and
 * other single quotes are one character, so a class the match says nothing about follows the other one.
 */
function curlyClasses(matched: string): Set<QuoteClass> {
  const curly = new Set<QuoteClass>();
  const straight = new Set<QuoteClass>();
  for (let index = 0; index < matched.length; index += 1) {
    const quoteClass = quoteClassAt(matched, index);
    if (quoteClass === undefined) continue;
    const character = matched.charAt(index);
    (character === '"' || character === "'" ? straight : curly).add(quoteClass);
  }
  const curls = (quoteClass: QuoteClass) => curly.has(quoteClass) && !straight.has(quoteClass);
  const seen = (quoteClass: QuoteClass) => curly.has(quoteClass) || straight.has(quoteClass);
  const result = new Set(QUOTE_CLASSES.filter(curls));
  if (!seen('single') && curls('apostrophe')) result.add('single');
  if (!seen('apostrophe') && curls('single')) result.add('apostrophe');
  return result;
}

/**
 * Carries the file's curly-quote style into `replacement`, per kind of quote: double quotes, apostrophes (between
 * two letters, always ’) and other single quotes. A straight quote in the replacement is curled (“ ” or ‘ ’ by
 * position) only when the matched file text writes that kind curly and never straight — so code like
 * `'You’re done'` keeps its straight string delimiters while its apostrophe stays ’. Quotes already curly in the
 * replacement are kept.
 */
export function carryQuoteStyle(matched: string, replacement: string): string {
  const curled = curlyClasses(matched);
  if (curled.size === 0) return replacement;
  let result = '';
  for (let index = 0; index < replacement.length; index += 1) {
    const character = replacement.charAt(index);
    const quoteClass = character === '"' || character === "'" ? quoteClassAt(replacement, index) : undefined;
    if (quoteClass === undefined || !curled.has(quoteClass)) result += character;
    else if (quoteClass === 'double') result += opensAt(replacement, index) ? LEFT_DOUBLE : RIGHT_DOUBLE;
    else if (quoteClass === 'apostrophe') result += RIGHT_SINGLE;
    else result += opensAt(replacement, index) ? LEFT_SINGLE : RIGHT_SINGLE;
  }
  return result;
}
