import type {
  AppliedFileChange,
  ChangeSection,
  FileChangeObserver,
  RemovedFileChange,
} from './change-observer.js';

/** Why `add` is refused after `runtime.close()`: a closed runtime starts nothing new. */
export const RUNTIME_CLOSED_MESSAGE = 'The runtime is closed: create a new one to add file change observers.';

/** A section an observer returned, with the observer's name. */
export interface NamedChangeSection extends ChangeSection {
  readonly source: string;
}

/** The observers of one runtime, in the order they were added (a formatter added first runs before a checker). */
export class ChangeObservers {
  private readonly observers: FileChangeObserver[] = [];
  private closing: Promise<void> | undefined;

  /** Adds an observer; returns a function that removes it again. Refused once the runtime is closed. */
  add(observer: FileChangeObserver): () => void {
    if (this.closing) throw new Error(RUNTIME_CLOSED_MESSAGE);
    this.observers.push(observer);
    return () => {
      const index = this.observers.indexOf(observer);
      if (index >= 0) this.observers.splice(index, 1);
    };
  }

  /** How many observers are registered. */
  get size(): number {
    return this.observers.length;
  }

  /** Tells every observer, one after the other, and returns their sections. An observer that throws adds nothing. */
  async notify(change: AppliedFileChange): Promise<NamedChangeSection[]> {
    const sections: NamedChangeSection[] = [];
    for (const observer of [...this.observers]) {
      try {
        const section = await observer.changeApplied(change);
        if (section) sections.push({ ...section, source: observer.name });
      } catch {
        // An observer never fails or undoes a write that is already on disk.
      }
    }
    return sections;
  }

  /** Tells every observer that has `changeRemoved` of a file a tool removed, one after the other. */
  async notifyRemoved(change: RemovedFileChange): Promise<void> {
    for (const observer of [...this.observers]) {
      try {
        await observer.changeRemoved?.(change);
      } catch {
        // An observer never fails or undoes a removal that is already made.
      }
    }
  }

  /** Closes every observer once (later calls wait for the same closing); failures of one do not stop the others. */
  close(): Promise<void> {
    this.closing ??= Promise.allSettled(
      this.observers.splice(0).map(async (observer) => observer.close?.()),
    ).then(() => undefined);
    return this.closing;
  }
}
