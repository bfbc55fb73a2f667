// Quickstart: the company API's three nightly jobs.
//   1. incidents in SQLite, kept in sync by the delta endpoint (removals applied, 410/400 → resync)
//   2. last year's ESRS S1-14 datapoints as CSV, written to a file
//   3. a month of worked hours pushed (the provisioning key; the month's value is replaced)
// COMPANY_API_URL, COMPANY_READ_KEY and COMPANY_PROVISIONING_KEY say where and as whom;
// WORKED_MONTH and WORKED_HOURS what to push (nothing is pushed without both). See
// examples/README.md.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/company.ts";
import {
  type ApiFailure,
  failure,
  isStaleToken,
  pages,
  QuotaExhausted,
  required,
  resilientFetch,
  stats,
} from "./http.ts";

type Incident = components["schemas"]["Incident"];

const BASE = required("COMPANY_API_URL");
const READ_KEY = required("COMPANY_READ_KEY");
const PROVISIONING_KEY = required("COMPANY_PROVISIONING_KEY");
const DIR = process.env.QUICKSTART_DIR ?? "quickstart-data";

// Least privilege: the read key for the exports, the provisioning key only for the push.
const client = (key: string) =>
  createClient<paths>({
    baseUrl: BASE,
    headers: { Authorization: `Bearer ${key}` },
    fetch: resilientFetch,
  });
const reader = client(READ_KEY);
const provisioner = client(PROVISIONING_KEY);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS incidents (id TEXT PRIMARY KEY, reference TEXT, event_date TEXT,
  status TEXT, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sync_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);`;

/** One delta pass: a full copy without `since` (replacing the old one), else the changes. */
async function incidents(db: DatabaseSync, since: string | undefined) {
  const counts = { rows: 0, removals: 0 };
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO incidents (id, reference, event_date, status, data)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const remove = db.prepare("DELETE FROM incidents WHERE id = ?");
  let next: string | null = null;
  db.exec("BEGIN");
  try {
    const held = Number(db.prepare("SELECT count(*) AS n FROM incidents").get()?.n);
    if (since === undefined) db.exec("DELETE FROM incidents");
    const listing = pages((page_token) =>
      reader.GET("/v1/incidents/delta", {
        params: { query: { limit: 500, page_token, delta_token: since } },
      }),
    );
    for await (const page of listing) {
      for (const row of page.data) {
        if ("removed" in row) {
          remove.run(row.id);
          counts.removals++;
        } else {
          const i: Incident = row;
          upsert.run(i.id, i.reference, i.event_date, i.status, JSON.stringify(i));
          counts.rows++;
        }
      }
      next = page.delta_token;
    }
    // A resync's copy replaces the old one: what it did not bring back is removed.
    if (since === undefined) counts.removals = Math.max(0, held - counts.rows);
    if (next) db.prepare("INSERT OR REPLACE INTO sync_state VALUES ('delta_token', ?)").run(next);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  return counts;
}

async function syncIncidents() {
  const db = new DatabaseSync(join(DIR, "company.sqlite"));
  try {
    db.exec(SCHEMA);
    const stored = db.prepare("SELECT value FROM sync_state WHERE name = 'delta_token'").get();
    const since = stored ? String(stored.value) : undefined;
    let mode = since === undefined ? "full copy" : "delta";
    let counts;
    try {
      counts = await incidents(db, since);
    } catch (error) {
      if (since === undefined || !isStaleToken(error)) throw error;
      mode = `resync after ${(error as ApiFailure).status}`;
      counts = await incidents(db, undefined);
    }
    const held = Number(db.prepare("SELECT count(*) AS n FROM incidents").get()?.n);
    console.log(
      `incidents, ${mode}: ${counts.rows} rows written, ` +
        `${counts.removals} removals applied; ${held} held`,
    );
    return { mode, ...counts, held };
  } finally {
    db.close();
  }
}

/** The CSV as served (UTF-8 with a byte order mark, CRLF), for a spreadsheet or an auditor. */
async function esrsCsv() {
  const year = new Date().getUTCFullYear() - 1;
  const { data, error, response } = await reader.GET("/v1/esrs-s1", {
    params: { query: { year, format: "csv" } },
    parseAs: "arrayBuffer",
  });
  if (!data) throw failure(response, error);
  const file = join(DIR, `esrs-s1-14-${year}.csv`);
  writeFileSync(file, Buffer.from(data));
  const rows = Buffer.from(data).toString("utf8").split("\r\n").filter(Boolean).length - 1;
  console.log(`ESRS S1-14 ${year}: ${rows} datapoints written to ${file}`);
  return { year, datapoints: rows };
}

/**
 * The month's hours of the whole own workforce (employees and non-employees), from HR. Only when
 * WORKED_MONTH and WORKED_HOURS are set: the push replaces the month's stored value, so a made-up
 * default would overwrite real figures. One Idempotency-Key for the write and every retry of it
 * (resilientFetch resends the same request): a push that had already happened answers again.
 */
async function pushWorkedHours() {
  const month = process.env.WORKED_MONTH;
  const hours = process.env.WORKED_HOURS;
  if (!month || !hours) {
    console.log("worked hours: skipped (set WORKED_MONTH=YYYY-MM and WORKED_HOURS to push)");
    return { skipped: true };
  }
  const { data, error, response } = await provisioner.POST("/v1/worked-hours", {
    body: { month, hours: Number(hours) },
    headers: { "Idempotency-Key": randomUUID() },
  });
  if (!data) throw failure(response, error);
  const what = response.status === 201 ? "stored" : "replaced the earlier value";
  console.log(`worked hours ${data.data.month}: ${data.data.hours} h ${what}`);
  return { month, hours: data.data.hours, status: response.status };
}

async function main(): Promise<number> {
  mkdirSync(DIR, { recursive: true });
  try {
    const summary = {
      incidents: await syncIncidents(),
      esrs: await esrsCsv(),
      worked_hours: await pushWorkedHours(),
    };
    console.log(
      `requests: ${stats.requests} (${stats.pages} pages), ` +
        `retries: ${stats.retries429} after 429, ` +
        `${stats.retries5xx} after 5xx or network errors`,
    );
    console.log(`summary ${JSON.stringify({ ...summary, ...stats })}`);
    return 0;
  } catch (error) {
    if (!(error instanceof QuotaExhausted)) throw error;
    console.error(`${error.message}; nothing committed, run again after the reset`);
    return 75;
  }
}

process.exitCode = await main();
