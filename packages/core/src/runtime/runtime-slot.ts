import type { ToolRuntime } from './runtime.js';

/**
 * A typed place for per-runtime state that one tool package keeps (a cache, say): every runtime holds its own value,
 * created by `create` the first time `runtime.slot(slot)` asks for it. Define a slot once, as a module constant;
 * the slot is only a key, the values live in the runtimes.
 */
export interface RuntimeSlot<T> {
  /** Names the slot in errors and diagnostics, e.g. `read.lineIndexes`. */
  readonly name: string;
  /** Makes the slot's value for one runtime. */
  readonly create: (runtime: ToolRuntime) => T;
}

/** Defines a {@link RuntimeSlot}: `defineRuntimeSlot('read.lineIndexes', () => new LineIndexStore())`. */
export function defineRuntimeSlot<T>(name: string, create: (runtime: ToolRuntime) => T): RuntimeSlot<T> {
  return Object.freeze({ name, create });
}

/** The values of one runtime's slots, keyed by the slot objects themselves. */
export class RuntimeSlots {
  private readonly values = new Map<RuntimeSlot<unknown>, unknown>();

  /** The runtime's value for `slot`, made on first use. */
  get<T>(slot: RuntimeSlot<T>, runtime: ToolRuntime): T {
    if (!this.values.has(slot)) this.values.set(slot, slot.create(runtime));
    return this.values.get(slot) as T;
  }
}
