/**
 * Group commit per key: calls for the same key that arrive while a run for that key is in
 * flight wait and are served together by the next run, so N concurrent calls cost one run
 * (not N contending ones). `run(key, args)` must return one result per argument, in order.
 */
interface Waiter<A, T> {
  arg: A;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

export class Coalescer<A, T> {
  private readonly queues = new Map<string, Array<Waiter<A, T>>>();
  private readonly running = new Set<string>();

  /** `maxBatch`: at most this many calls per run (the rest wait for the next run). */
  constructor(
    private readonly run: (key: string, args: A[]) => Promise<T[]>,
    private readonly maxBatch = Number.POSITIVE_INFINITY,
  ) {}

  submit(key: string, arg: A): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queue = this.queues.get(key) ?? [];
      queue.push({ arg, resolve, reject });
      this.queues.set(key, queue);
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let batch = this.take(key); batch.length; batch = this.take(key)) {
        try {
          const results = await this.run(
            key,
            batch.map((waiter) => waiter.arg),
          );
          batch.forEach((waiter, i) => waiter.resolve(results[i]));
        } catch (err) {
          batch.forEach((waiter) => waiter.reject(err));
        }
      }
    } finally {
      this.running.delete(key);
    }
  }

  private take(key: string) {
    const queue = this.queues.get(key) ?? [];
    const batch = queue.splice(0, this.maxBatch);
    if (!queue.length) this.queues.delete(key);
    return batch;
  }
}
