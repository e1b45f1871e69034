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

/**
 * Carries the file's curly-quote style into `replacement`: when `matched` (the file's text that is being
 * replaced) uses curly double quotes, straight `"` in the replacement become “ or ” by position; likewise
 * for single quotes, where an apostrophe between two letters always becomes ’. Quotes already curly in the
 * replacement are kept. A kind of quote the matched text never curls stays straight.
 */
export function carryQuoteStyle(matched: string, replacement: string): string {
  const curlyDouble = matched.includes(LEFT_DOUBLE) || matched.includes(RIGHT_DOUBLE);
  const curlySingle = matched.includes(LEFT_SINGLE) || matched.includes(RIGHT_SINGLE);
  if (!curlyDouble && !curlySingle) return replacement;
  let result = '';
  for (let index = 0; index < replacement.length; index += 1) {
    const character = replacement.charAt(index);
    if (character === '"' && curlyDouble) {
      result += opensAt(replacement, index) ? LEFT_DOUBLE : RIGHT_DOUBLE;
    } else if (character === "'" && curlySingle) {
      const apostrophe = isWordCharacter(replacement[index - 1]) && isWordCharacter(replacement[index + 1]);
      result += !apostrophe && opensAt(replacement, index) ? LEFT_SINGLE : RIGHT_SINGLE;
    } else {
      result += character;
    }
  }
  return result;
}
