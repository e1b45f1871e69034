/** A promise and what settles it: one step of a test that orders calls running side by side. */
export interface Signal {
  promise: Promise<void>;
  fire: () => void;
}

/** A {@link Signal} not fired yet. */
export function signal(): Signal {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}
