/**
 * JSON-RPC batches the proxy answers in part: the members it answers itself (tools/list) and the
 * server's answers to the rest go back to the client as one batch response, in that order.
 */

interface Open {
  readonly waiting: Set<string>;
  readonly answers: string[];
  locals: string[] | undefined;
  readonly done: () => void;
}

export class Batches {
  readonly #byKey = new Map<string, Open>();
  readonly #write: (text: string) => void;

  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /**
   * A batch whose forwarded requests have these keys and whose own answers `locals` will give. Resolves
   * once its response was written.
   */
  open(keys: readonly string[], locals: Promise<string[]>): Promise<void> {
    return new Promise<void>((resolve) => {
      const batch: Open = { waiting: new Set(keys), answers: [], locals: undefined, done: resolve };
      for (const k of keys) this.#byKey.set(k, batch);
      void locals.then((answers) => {
        batch.locals = answers;
        this.#flush(batch);
      });
    });
  }

  /** Keeps an answer for its batch; false when the key belongs to none. */
  take(key: string, answer: string): boolean {
    const batch = this.#byKey.get(key);
    if (!batch) return false;
    this.#byKey.delete(key);
    batch.waiting.delete(key);
    batch.answers.push(answer);
    this.#flush(batch);
    return true;
  }

  /**
   * A member the client cancelled: the batch no longer waits for it and never answers it (MCP: a cancelled
   * request gets no answer); the rest of the batch is answered as soon as it is complete.
   */
  forget(key: string): void {
    const batch = this.#byKey.get(key);
    if (!batch) return;
    this.#byKey.delete(key);
    batch.waiting.delete(key);
    this.#flush(batch);
  }

  #flush(batch: Open): void {
    if (batch.waiting.size > 0 || batch.locals === undefined) return;
    const all = [...batch.answers, ...batch.locals];
    if (all.length > 0) this.#write(`[${all.join(',')}]`);
    batch.done();
  }
}
