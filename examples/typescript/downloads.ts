// The files of the copy, fetched through each row's `content_url` within the key's quota.
//
// A listing's `download_url` lives 15 minutes, far less than 20,000 downloads take, so the copy
// keeps `content_url` only and asks it for a fresh link right before each download (one request
// against the key's limits per file, like any other). Downloads stop for the day when the
// `RateLimit` header shows the day nearly spent (DAY_RESERVE requests are left for the nightly
// delta) or a 429 asks to wait past MAX_WAIT_SECONDS; the next run resumes where this one stopped.
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import type { paths } from "../generated/findings.ts";
import type { FindingsStore } from "./findingsStore.ts";
import { dayRemaining, failure, QuotaExhausted, resilientFetch } from "./http.ts";

type ContentPath = paths["/v1/findings/{id}/attachments/{attachment_id}/content"];
type FreshLink = ContentPath["get"]["responses"][302]["content"]["application/json"];

const DAY_RESERVE = Number(process.env.DAY_RESERVE ?? 50);
/**
 * `files` (default): fetch each file. `links`: save each fresh link in `<name>.link` instead;
 * for the local demo stack, whose links are signed with a throwaway key and download nothing.
 */
const MODE = process.env.DOWNLOAD_MODE ?? "files";
/** A link this close to its expiry is renewed before use rather than raced. */
const EXPIRY_MARGIN_MS = 60_000;

const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_");

export async function downloadFiles(store: FindingsStore, key: string) {
  const result = { downloaded: 0, left: 0, gone: 0, stoppedForQuota: false };
  const pending = store.pendingDownloads();
  for (const [index, row] of pending.entries()) {
    let link: FreshLink | "gone";
    let remaining: number | undefined;
    try {
      ({ link, remaining } = await freshLink(row.content_url, key));
    } catch (error) {
      if (!(error instanceof QuotaExhausted)) throw error;
      result.stoppedForQuota = true;
      result.left = pending.length - index;
      break;
    }
    if (link === "gone") {
      result.gone++; // deleted or hidden since it was listed: the next delta says so
      continue;
    }
    const dir = join(store.filesDir, encodeURIComponent(row.finding_id));
    mkdirSync(dir, { recursive: true });
    // The key first, so two files of one name never collide; the name keeps its extension.
    const file = join(dir, safe(`${row.attachment_id}${row.file_name ? `-${row.file_name}` : ""}`));
    if (MODE === "links") writeFileSync(`${file}.link`, `${link.download_url}\n`);
    else await fetchLinked(link, row.content_url, key, file);
    store.markDownloaded(
      row.finding_id,
      row.attachment_id,
      MODE === "links" ? `${file}.link` : file,
    );
    result.downloaded++;
    if (remaining !== undefined && remaining <= DAY_RESERVE) {
      result.stoppedForQuota = true;
      result.left = pending.length - index - 1;
      break;
    }
  }
  return result;
}

/** `content_url` answers 302 with the link in `Location` and in the body; 404 if gone. */
async function freshLink(contentUrl: string, key: string) {
  const request = new Request(contentUrl, { headers: { Authorization: `Bearer ${key}` } });
  const response = await resilientFetch(request);
  const body: unknown = await response.json().catch(() => undefined);
  const remaining = dayRemaining(response);
  if (response.status === 404) return { link: "gone" as const, remaining };
  if (response.status !== 302) throw failure(response, body);
  return { link: body as FreshLink, remaining };
}

/** Streams the file to `file`; the link needs no key (never send it to storage). Renewed once. */
async function fetchLinked(link: FreshLink, contentUrl: string, key: string, file: string) {
  let current = link;
  for (let attempt = 0; attempt < 2; attempt++) {
    const stale = Date.parse(current.download_url_expires_at) - Date.now() < EXPIRY_MARGIN_MS;
    if (!stale) {
      const response = await fetch(current.download_url);
      if (response.ok && response.body) {
        const body = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
        return pipeline(body, createWriteStream(file));
      }
      // Storage refuses an expired or invalid signature with 400 or 403: renew and try again.
      if (response.status !== 400 && response.status !== 403)
        throw new Error(`download of ${contentUrl} answered ${response.status}`);
    }
    const renewed = await freshLink(contentUrl, key);
    if (renewed.link === "gone") throw new Error(`${contentUrl} is gone`);
    current = renewed.link;
  }
  throw new Error(`download of ${contentUrl} failed with a fresh link`);
}
