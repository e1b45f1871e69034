/**
 * One change to a decoded text: the characters `[start, end)` of its `\n`-normalised form replaced by `text`
 * (`\n`-normalised too). A list of them is sorted by `start` and never overlaps.
 */
export interface TextReplacement {
  start: number;
  end: number;
  text: string;
}
