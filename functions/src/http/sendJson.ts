import type { Response } from "express";
import { setImmediate as nextTurn } from "node:timers/promises";

/** About this many characters per write: a page never exists as one string and one Buffer. */
const CHUNK = 64 * 1024;
/** At most this many characters serialised ahead of sending (a page of 500 findings is about 0.9 MiB). */
const AHEAD = 1024 * 1024;

type Page = { data: unknown[] } & Record<string, unknown>;

const isPage = (body: unknown): body is Page => typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data);

/** Resolves once the socket takes more, or the caller is gone (then the rest is not written). */
function drained(res: Response): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const done = (open: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(open);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/** The text of `JSON.stringify(page)`, row by row, in pieces of about CHUNK characters. */
function* pageText(page: Page): Generator<string> {
  const { data, ...rest } = page;
  let chunk = '{"data":[';
  for (let i = 0; i < data.length; i++) {
    chunk += `${i ? "," : ""}${JSON.stringify(data[i]) ?? "null"}`;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = "";
    }
  }
  const tail = JSON.stringify(rest);
  yield `${chunk}]${tail === "{}" ? "}" : `,${tail.slice(1)}`}`;
}

/**
 * A JSON response body. A page (`{ data: [...], ... }`) goes out row by row in chunks of about
 * 64 KiB, with the socket's back-pressure: the bytes are those of `JSON.stringify(body)`, but
 * the whole text never sits in memory at once (500 findings with long checklists are several
 * MiB; sixteen of them answer at once on one instance). Anything else is sent whole.
 *
 * `prepareWhile` lets a page be serialised while its request is still being counted (one
 * Firestore commit), instead of after: up to AHEAD characters, one chunk per turn of the event
 * loop so the commit's own I/O goes on meanwhile. Nothing is written before `send`.
 */
export class JsonBody {
  private readonly text: Generator<string> | null;
  private readonly ready: string[] = [];
  private readySize = 0;
  private preparing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  constructor(private readonly body: unknown) {
    this.text = isPage(body) ? pageText(body) : null;
  }

  /** Serialises ahead until `pending` settles (or AHEAD characters are ready, or the page is done). */
  prepareWhile(pending: Promise<unknown>): void {
    const text = this.text;
    if (!text) return;
    let settled = false;
    const stop = () => (settled = true);
    pending.then(stop, stop);
    this.preparing = (async () => {
      while (this.readySize < AHEAD) {
        await nextTurn();
        if (settled) return;
        const next = text.next();
        if (next.done) return;
        this.ready.push(next.value);
        this.readySize += next.value.length;
      }
    })().catch((error: unknown) => {
      // Kept for send, which throws it: the generator is finished and would read as a complete page.
      this.failure = { error };
    });
  }

  /** Writes the body (a page: what was prepared, then the rest); returns early if the caller is gone. */
  async send(res: Response): Promise<void> {
    if (!this.text) {
      res.json(this.body);
      return;
    }
    await this.preparing;
    if (this.failure) throw this.failure.error;
    // A caller gone before or during the page: nothing more to write (a write would report
    // back-pressure that never clears).
    if (res.destroyed) return;
    res.type("json");
    // What is prepared is in memory already: it goes to the socket at once, without waiting
    // for the caller to read each chunk; the rest is produced as the socket takes it.
    let open = true;
    for (const chunk of this.ready.splice(0)) open = res.write(chunk);
    if (!open && !(await drained(res))) return;
    for (const chunk of this.text) {
      if (res.destroyed || (!res.write(chunk) && !(await drained(res)))) return;
    }
    res.end();
  }
}

/** Sends a JSON body at once (see JsonBody). */
export function sendJson(res: Response, body: unknown): Promise<void> {
  return new JsonBody(body).send(res);
}
