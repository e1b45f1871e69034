import readline from 'node:readline';

/** Asks the person at the terminal one line at a time. */
export interface LinePrompter {
  /** The typed line, or `null` once the input ended or the user pressed Ctrl-C. */
  question(text: string): Promise<string | null>;
  /** Whether the user pressed Ctrl-C (the session should stop). */
  readonly interrupted: boolean;
  /** Hands the terminal to `task` (an editor) and takes it back after, answering no question meanwhile. */
  suspend<T>(task: () => Promise<T>): Promise<T>;
  /** Releases the terminal (the process can then exit). */
  close(): void;
}

/** A prompter on a terminal; the readline interface is opened at the first question, so a run that asks nothing never touches stdin. */
export function createTerminalPrompter(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): LinePrompter {
  let rl: readline.Interface | undefined;
  let ended = false;
  let interrupted = false;
  let pending: ((line: string | null) => void) | undefined;

  const finish = (line: string | null) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(line);
  };

  const open = (): readline.Interface => {
    if (rl) return rl;
    rl = readline.createInterface({ input, output, terminal: true });
    rl.on('close', () => {
      ended = true;
      finish(null);
    });
    // Without a listener readline would only pause on Ctrl-C, leaving the prompt hanging.
    rl.on('SIGINT', () => {
      interrupted = true;
      output.write('\n');
      rl?.close();
    });
    return rl;
  };

  return {
    get interrupted() {
      return interrupted;
    },
    question(text) {
      if (ended) return Promise.resolve(null);
      const face = open();
      return new Promise((resolve) => {
        pending = resolve;
        face.question(text, (line) => finish(line));
      });
    },
    async suspend(task) {
      if (!rl) return task();
      rl.pause();
      // readline keeps a terminal raw; an editor needs it cooked, as the shell would give it.
      const terminal = input as NodeJS.ReadStream;
      const wasRaw = terminal.isRaw === true;
      terminal.setRawMode?.(false);
      try {
        return await task();
      } finally {
        terminal.setRawMode?.(wasRaw);
        rl.resume();
      }
    },
    close() {
      rl?.close();
    },
  };
}
