import pc from 'picocolors';

/** The colour functions of picocolors (identity functions when colour is off). */
export type Colors = ReturnType<typeof pc.createColors>;

/** Where the transcript goes, and how it is coloured. */
export interface Output {
  readonly colors: Colors;
  /** Writes one line (a line break is added). */
  line(text?: string): void;
}

/**
 * Whether to colour: never with `NO_COLOR` set (the no-color convention), always with `FORCE_COLOR` set (other than
 * `0`), else only when the stream is a terminal that is not `dumb`.
 */
export function shouldColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return isTTY && env.TERM !== 'dumb';
}

/** An output writing to `stream`, coloured when {@link shouldColor} says so. */
export function createStreamOutput(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Output {
  const colors = pc.createColors(shouldColor(env, stream.isTTY === true));
  return {
    colors,
    line: (text = '') => {
      stream.write(`${text}\n`);
    },
  };
}

/** An output that keeps its lines in memory, without colour (for tests and summaries). */
export function createMemoryOutput(): Output & { readonly lines: string[] } {
  const lines: string[] = [];
  return { colors: pc.createColors(false), lines, line: (text = '') => lines.push(text) };
}
