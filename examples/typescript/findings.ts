// Quickstart: a vessel's findings in SQLite, kept in sync. Run it as often as you like (nightly):
//   first run      a full copy: findings, every comment, every attachment row, then the files
//   later runs     the delta since the last run, removals applied; files still to fetch
//   410 or 400     on the stored delta token: a full copy again (see isStaleToken)
// FINDINGS_API_URL and FINDINGS_API_KEY say where and as whom; examples/README.md has the rest.
import { mkdirSync } from "node:fs";
import createClient from "openapi-fetch";
import type { paths } from "../generated/findings.ts";
import { downloadFiles } from "./downloads.ts";
import { type Attachment, FindingsStore } from "./findingsStore.ts";
import {
  ApiFailure,
  failure,
  isStaleToken,
  pages,
  QuotaExhausted,
  required,
  resilientFetch,
  stats,
} from "./http.ts";

const BASE = required("FINDINGS_API_URL");
const KEY = required("FINDINGS_API_KEY");
const DIR = process.env.QUICKSTART_DIR ?? "quickstart-data";
const PAGE = 500;

const api = createClient<paths>({
  baseUrl: BASE,
  headers: { Authorization: `Bearer ${KEY}` },
  fetch: resilientFetch,
});

const report = { mode: "", findings: 0, comments: 0, attachments: 0, removals: 0, changed: 0 };

/** Findings from the delta endpoint without a token, then the vessel-wide comments and files. */
async function fullCopy(store: FindingsStore): Promise<void> {
  let deltaToken: string | null = null;
  await store.transaction(async () => {
    const held = store.clearForFullCopy();
    const findings = pages((page_token) =>
      api.GET("/v1/findings/delta", { params: { query: { limit: PAGE, page_token } } }),
    );
    for await (const page of findings) {
      for (const row of page.data) if (!("removed" in row)) store.upsertFinding(row);
      report.findings += page.data.length;
      deltaToken = page.delta_token;
    }
    const comments = pages((page_token) =>
      api.GET("/v1/comments", { params: { query: { limit: PAGE, page_token } } }),
    );
    for await (const page of comments) {
      for (const row of page.data) store.upsertComment(row);
      report.comments += page.data.length;
    }
    const attachments = pages((page_token) =>
      api.GET("/v1/attachments", { params: { query: { limit: PAGE, page_token } } }),
    );
    for await (const page of attachments) {
      for (const row of page.data) store.upsertAttachment(row.finding_id, row);
      report.attachments += page.data.length;
    }
    store.sweepUnseen();
    report.removals = store.removeAbsent(held);
    // Stored last, in the same transaction: a run that stops earlier starts this copy again.
    if (deltaToken) store.deltaToken = deltaToken;
  });
}

/** A changed finding's thread and files may have changed too: list them again. */
async function refreshThread(store: FindingsStore, id: string): Promise<void> {
  store.forgetThread(id);
  const comments = pages((page_token) =>
    api.GET("/v1/findings/{id}/comments", {
      params: { path: { id }, query: { limit: PAGE, page_token } },
    }),
  );
  try {
    for await (const page of comments) for (const row of page.data) store.upsertComment(row);
    const { data, error, response } = await api.GET("/v1/findings/{id}/attachments", {
      params: { path: { id }, query: { limit: PAGE } },
    });
    if (!data) throw failure(response, error);
    if (data.truncated) console.warn(`  ${id}: more than ${PAGE} attachments, the rest left out`);
    for (const row of data.data as Attachment[]) store.upsertAttachment(id, row);
  } catch (error) {
    // Hidden or deleted since the delta page was read: the next delta brings its removal.
    if (!(error instanceof ApiFailure && error.status === 404)) throw error;
  }
  store.sweepUnseen();
}

/** The changes since `since`: removals applied, changed rows upserted with their threads. */
async function delta(store: FindingsStore, since: string): Promise<void> {
  let next: string | null = null;
  const changed = new Set<string>();
  const findings = pages((page_token) =>
    api.GET("/v1/findings/delta", {
      params: { query: { limit: PAGE, page_token, delta_token: since } },
    }),
  );
  for await (const page of findings) {
    for (const row of page.data) {
      if ("removed" in row) {
        store.removeFinding(row.id);
        changed.delete(row.id);
        report.removals++;
      } else {
        store.upsertFinding(row);
        changed.add(row.id);
      }
    }
    next = page.delta_token;
  }
  for (const id of changed) await store.transaction(() => refreshThread(store, id));
  report.changed = changed.size;
  // Only once every page has arrived: after a crash the same delta runs again (rows repeat).
  if (next) store.deltaToken = next;
}

async function main(): Promise<number> {
  mkdirSync(DIR, { recursive: true });
  const store = new FindingsStore(DIR);
  try {
    const since = store.deltaToken;
    if (since === undefined) {
      report.mode = "full copy";
      await fullCopy(store);
    } else {
      report.mode = "delta";
      try {
        await delta(store, since);
      } catch (error) {
        if (!isStaleToken(error)) throw error;
        console.log(
          `stored delta token refused (${(error as ApiFailure).status}): full copy again`,
        );
        report.mode = `resync after ${(error as ApiFailure).status}`;
        await fullCopy(store);
      }
    }
    console.log(
      `${report.mode}: ${report.findings} findings, ${report.comments} comments, ` +
        `${report.attachments} attachment rows listed; ${report.changed} changed, ` +
        `${report.removals} removals applied`,
    );
    const files = await downloadFiles(store, KEY);
    console.log(
      `files: ${files.downloaded} downloaded, ${files.left} left for the next run` +
        `${files.stoppedForQuota ? " (daily quota reached)" : ""}, ${files.gone} gone since listed`,
    );
    const held = (["findings", "comments", "attachments"] as const).map(
      (table) => `${store.count(table)} ${table}`,
    );
    console.log(`copy now holds ${held.join(", ")} in ${DIR}/findings.sqlite`);
    console.log(
      `requests: ${stats.requests} (${stats.pages} pages), ` +
        `retries: ${stats.retries429} after 429, ` +
        `${stats.retries5xx} after 5xx or network errors`,
    );
    console.log(`summary ${JSON.stringify({ ...report, ...files, ...stats })}`);
    return 0;
  } catch (error) {
    if (error instanceof QuotaExhausted) {
      console.error(`${error.message}; the copy is unchanged, run again after the reset`);
      return 75;
    }
    throw error;
  } finally {
    store.db.close();
  }
}

process.exitCode = await main();
