// The vessel's copy in SQLite (Node's built-in node:sqlite). Keys are the API's own ids, never
// positions: a finding by `id`; a comment by (`finding_id`, `id`), since comment ids are unique
// only within their finding; an attachment by (`finding_id`, the `attachment_id` read from its
// `content_url`), because rows of the location image and of comments have no `id` of their own
// and the guide asks not to compose `attachment_id` by hand. The whole row is kept as JSON beside
// a few columns worth querying.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { components } from "../generated/findings.ts";

export type Finding = components["schemas"]["Finding"];
export type Comment = components["schemas"]["Comment"];
export type Attachment = components["schemas"]["Attachment"];
export type PendingFile = {
  finding_id: string;
  attachment_id: string;
  file_name: string | null;
  content_url: string;
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS findings (id TEXT PRIMARY KEY, finding_number INTEGER, title TEXT,
  status TEXT, last_edited_date TEXT, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS comments (finding_id TEXT NOT NULL, id TEXT NOT NULL, created_at TEXT,
  text TEXT, data TEXT NOT NULL, PRIMARY KEY (finding_id, id));
CREATE TABLE IF NOT EXISTS attachments (finding_id TEXT NOT NULL, attachment_id TEXT NOT NULL,
  file_name TEXT, content_url TEXT NOT NULL, download_error TEXT, data TEXT NOT NULL,
  file TEXT, seen INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (finding_id, attachment_id));
CREATE TABLE IF NOT EXISTS sync_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);`;

/** `comment.c03.0` from `…/findings/vessel-a-f0034/attachments/comment.c03.0/content`. */
export function attachmentId(contentUrl: string): string {
  const parts = new URL(contentUrl).pathname.split("/");
  return decodeURIComponent(parts[parts.indexOf("attachments") + 1]);
}

export class FindingsStore {
  readonly db: DatabaseSync;
  readonly filesDir: string;

  constructor(dir: string) {
    this.db = new DatabaseSync(join(dir, "findings.sqlite"));
    this.db.exec(SCHEMA);
    this.filesDir = join(dir, "files");
  }

  get deltaToken(): string | undefined {
    const row = this.db.prepare("SELECT value FROM sync_state WHERE name = 'delta_token'").get();
    return row ? String(row.value) : undefined;
  }

  set deltaToken(token: string) {
    this.db
      .prepare("INSERT OR REPLACE INTO sync_state (name, value) VALUES ('delta_token', ?)")
      .run(token);
  }

  /** Runs `work` in one transaction: a run that stops half-way leaves the previous copy intact. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec("BEGIN");
    try {
      const result = await work();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  /** A full copy starts from nothing but the files already downloaded (kept by their key). */
  clearForFullCopy(): Set<string> {
    const held = this.db.prepare("SELECT id FROM findings").all();
    this.db.exec("DELETE FROM findings; DELETE FROM comments; UPDATE attachments SET seen = 0");
    return new Set(held.map((row) => String(row.id)));
  }

  /** After a full copy: the findings it did not bring back are removed, with their files. */
  removeAbsent(held: Set<string>): number {
    const present = this.db.prepare("SELECT 1 FROM findings WHERE id = ?");
    const absent = [...held].filter((id) => !present.get(id));
    for (const id of absent) this.removeFinding(id);
    return absent.length;
  }

  /** Attachment rows a listing did not bring back are gone, their files too. */
  sweepUnseen(): number {
    const gone = this.db.prepare("SELECT file FROM attachments WHERE seen = 0").all();
    for (const row of gone) if (row.file) rmSync(String(row.file), { force: true });
    this.db.exec("DELETE FROM attachments WHERE seen = 0");
    return gone.length;
  }

  upsertFinding(f: Finding): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO findings (id, finding_number, title, status, last_edited_date, data)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(f.id, f.finding_number, f.title, f.status, f.last_edited_date, JSON.stringify(f));
  }

  upsertComment(c: Comment): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO comments (finding_id, id, created_at, text, data)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(c.finding_id, c.id, c.created_at, c.text, JSON.stringify(c));
  }

  /** Keeps `file` (already downloaded) when the row comes again under the same key. */
  upsertAttachment(findingId: string, a: Attachment): void {
    // Links expire in 15 minutes: the stored row keeps content_url, never the link.
    const row = { ...a, download_url: null, download_url_expires_at: null };
    this.db
      .prepare(
        `INSERT INTO attachments (finding_id, attachment_id, file_name, content_url,
           download_error, data, seen) VALUES (?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (finding_id, attachment_id) DO UPDATE SET file_name = excluded.file_name,
           content_url = excluded.content_url, download_error = excluded.download_error,
           data = excluded.data, seen = 1`,
      )
      .run(
        findingId,
        attachmentId(a.content_url),
        a.file_name,
        a.content_url,
        a.download_error,
        JSON.stringify(row),
      );
  }

  /** A removed finding goes with its comments, attachments and downloaded files. */
  removeFinding(id: string): void {
    this.db.prepare("DELETE FROM findings WHERE id = ?").run(id);
    this.db.prepare("DELETE FROM comments WHERE finding_id = ?").run(id);
    this.db.prepare("DELETE FROM attachments WHERE finding_id = ?").run(id);
    rmSync(join(this.filesDir, encodeURIComponent(id)), { recursive: true, force: true });
  }

  /** Before a changed finding's comments and attachments are listed again. */
  forgetThread(findingId: string): void {
    this.db.prepare("DELETE FROM comments WHERE finding_id = ?").run(findingId);
    this.db.prepare("UPDATE attachments SET seen = 0 WHERE finding_id = ?").run(findingId);
  }

  /** Files still to fetch: rows whose link can be signed (a `signing_failed` may work later). */
  pendingDownloads(): PendingFile[] {
    return this.db
      .prepare(
        `SELECT finding_id, attachment_id, file_name, content_url FROM attachments
         WHERE file IS NULL
         AND (download_error IS NULL OR download_error = 'signing_failed')
         ORDER BY finding_id, attachment_id`,
      )
      .all() as unknown as PendingFile[];
  }

  markDownloaded(findingId: string, id: string, file: string): void {
    this.db
      .prepare("UPDATE attachments SET file = ? WHERE finding_id = ? AND attachment_id = ?")
      .run(file, findingId, id);
  }

  count(table: "findings" | "comments" | "attachments"): number {
    return Number(this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
  }
}
