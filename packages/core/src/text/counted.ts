/** `1 line`, `2 lines`: a count and its noun, in the number the count needs (`plural` when not just an `s` more). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
