import type { Response } from "express";
import type { Answer } from "./route";

/** About this many characters per write: a page never exists as one string and one Buffer. */
const CHUNK = 64 * 1024;

type Page = { data: unknown[] } & Record<string, unknown>;

const isPage = (body: unknown): body is Page =>
  typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data);

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

/**
 * Sends a JSON body. A page (`{ data: [...], ... }`) goes out row by row in chunks of about
 * 64 KiB, with the socket's back-pressure: the bytes are those of `JSON.stringify(body)`, but
 * the whole text never sits in memory at once (500 findings with long checklists are several
 * MiB; sixteen of them answer at once on one instance). Anything else is sent whole.
 */
export async function sendJson(res: Response, body: unknown): Promise<void> {
  if (!isPage(body)) {
    res.json(body);
    return;
  }
  res.type("json");
  const { data, ...rest } = body;
  let chunk = '{"data":[';
  for (let i = 0; i < data.length; i++) {
    chunk += `${i ? "," : ""}${JSON.stringify(data[i]) ?? "null"}`;
    if (chunk.length >= CHUNK) {
      // A caller gone before or during the page: nothing more to write (a write would report
      // back-pressure that never clears).
      if (res.destroyed || (!res.write(chunk) && !(await drained(res)))) return;
      chunk = "";
    }
  }
  const tail = JSON.stringify(rest);
  res.end(`${chunk}]${tail === "{}" ? "}" : `,${tail.slice(1)}`}`);
}

/**
 * Sends a handler's answer: no body for a 204, a body as it is for its own media type, else JSON.
 */
export async function sendAnswer(res: Response, answer: Answer): Promise<void> {
  res.status(answer.status).set(answer.headers);
  if (answer.status === 204) res.end();
  else if (answer.contentType)
    res
      .type(answer.contentType)
      .send(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  else await sendJson(res, answer.body);
}
