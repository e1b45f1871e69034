/** The median of some numbers (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median, smallest and largest of a series. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The {@link Spread} of the defined values, or undefined when none is defined. */
export function spreadOf(values: ReadonlyArray<number | undefined>): Spread | undefined {
  const defined = values.filter((value): value is number => value !== undefined && !Number.isNaN(value));
  if (defined.length === 0) return undefined;
  return { median: median(defined), min: Math.min(...defined), max: Math.max(...defined) };
}
