/** One line as ReadFile shows it: the 1-based number right-aligned in 6 characters, a tab, the text. */
export function numberedLine(number: number, text: string): string {
  return `${String(number).padStart(6)}\t${text}`;
}
