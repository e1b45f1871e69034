/**
 * At most `size` tasks at once; the others wait their turn, first come first served, and a slot a task leaves passes
 * straight to the next. Fifteen lines here rather than p-limit, which is ESM-only and would have to be bundled into
 * every CommonJS build.
 */
export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
