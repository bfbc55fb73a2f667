"""Quickstart: a vessel's findings in SQLite, kept in sync (Python 3, standard library only).

Run it as often as you like (nightly):
  first run     a full copy: findings, every comment, every attachment row, then the files
  later runs    the delta since the last run, removals applied; files still to fetch
  410 or 400    on the stored delta token: a full copy again (see api.is_stale_token)
FINDINGS_API_URL and FINDINGS_API_KEY say where and as whom; examples/README.md has the rest.
The SQLite layout is the TypeScript quickstart's (typescript/findingsStore.ts explains the keys).
"""

import json
import os
import shutil
import sqlite3
import sys
import urllib.parse

from api import ApiFailure, Client, QuotaExhausted, is_stale_token, required, stats
from downloads import download_files

DIR = os.environ.get("QUICKSTART_DIR", "quickstart-data")
PAGE = 500

SCHEMA = """
CREATE TABLE IF NOT EXISTS findings (id TEXT PRIMARY KEY, finding_number INTEGER, title TEXT,
  status TEXT, last_edited_date TEXT, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS comments (finding_id TEXT NOT NULL, id TEXT NOT NULL, created_at TEXT,
  text TEXT, data TEXT NOT NULL, PRIMARY KEY (finding_id, id));
CREATE TABLE IF NOT EXISTS attachments (finding_id TEXT NOT NULL, attachment_id TEXT NOT NULL,
  file_name TEXT, content_url TEXT NOT NULL, download_error TEXT, data TEXT NOT NULL,
  file TEXT, seen INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (finding_id, attachment_id));
CREATE TABLE IF NOT EXISTS sync_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

api = Client(required("FINDINGS_API_URL"), required("FINDINGS_API_KEY"))
report = {"mode": "", "findings": 0, "comments": 0, "attachments": 0, "removals": 0, "changed": 0}


def attachment_id(content_url):
    """comment.c03.0 from …/attachments/comment.c03.0/content: read, never composed."""
    parts = urllib.parse.urlsplit(content_url).path.split("/")
    return urllib.parse.unquote(parts[parts.index("attachments") + 1])


def files_of(finding_id):
    return os.path.join(DIR, "files", urllib.parse.quote(finding_id, safe=""))


def upsert_finding(db, f):
    db.execute(
        "INSERT OR REPLACE INTO findings VALUES (?, ?, ?, ?, ?, ?)",
        (f["id"], f["finding_number"], f["title"], f["status"], f["last_edited_date"],
         json.dumps(f)),
    )


def upsert_comment(db, c):
    db.execute(
        "INSERT OR REPLACE INTO comments VALUES (?, ?, ?, ?, ?)",
        (c["finding_id"], c["id"], c["created_at"], c["text"], json.dumps(c)),
    )


def upsert_attachment(db, finding_id, a):
    """Keeps `file` (already downloaded) when the row comes again under the same key."""
    row = {**a, "download_url": None, "download_url_expires_at": None}  # links expire: not kept
    db.execute(
        """INSERT INTO attachments (finding_id, attachment_id, file_name, content_url,
             download_error, data, seen) VALUES (?, ?, ?, ?, ?, ?, 1)
           ON CONFLICT (finding_id, attachment_id) DO UPDATE SET file_name = excluded.file_name,
             content_url = excluded.content_url, download_error = excluded.download_error,
             data = excluded.data, seen = 1""",
        (finding_id, attachment_id(a["content_url"]), a["file_name"], a["content_url"],
         a["download_error"], json.dumps(row)),
    )


def remove_finding(db, finding_id):
    db.execute("DELETE FROM findings WHERE id = ?", (finding_id,))
    db.execute("DELETE FROM comments WHERE finding_id = ?", (finding_id,))
    db.execute("DELETE FROM attachments WHERE finding_id = ?", (finding_id,))
    shutil.rmtree(files_of(finding_id), ignore_errors=True)


def sweep_unseen(db):
    """Attachment rows a listing did not bring back are gone, their files too."""
    for (file,) in db.execute("SELECT file FROM attachments WHERE seen = 0 AND file IS NOT NULL"):
        if os.path.exists(file):
            os.remove(file)
    db.execute("DELETE FROM attachments WHERE seen = 0")


def full_copy(db):
    """Findings from the delta endpoint without a token, then the vessel-wide comments and files."""
    held = {row[0] for row in db.execute("SELECT id FROM findings")}
    db.execute("DELETE FROM findings")
    db.execute("DELETE FROM comments")
    db.execute("UPDATE attachments SET seen = 0")
    delta_token = None
    for page in api.pages("/v1/findings/delta", {"limit": PAGE}):
        for row in page["data"]:
            if "removed" not in row:
                upsert_finding(db, row)
        report["findings"] += len(page["data"])
        delta_token = page.get("delta_token")
    for page in api.pages("/v1/comments", {"limit": PAGE}):
        for row in page["data"]:
            upsert_comment(db, row)
        report["comments"] += len(page["data"])
    for page in api.pages("/v1/attachments", {"limit": PAGE}):
        for row in page["data"]:
            upsert_attachment(db, row["finding_id"], row)
        report["attachments"] += len(page["data"])
    sweep_unseen(db)
    present = {row[0] for row in db.execute("SELECT id FROM findings")}
    for finding_id in held - present:  # a resync's copy replaces the old one
        remove_finding(db, finding_id)
    report["removals"] = len(held - present)
    # Stored last, in the same transaction: a run that stops earlier starts this copy again.
    db.execute("INSERT OR REPLACE INTO sync_state VALUES ('delta_token', ?)", (delta_token,))


def refresh_thread(db, finding_id):
    """A changed finding's thread and files may have changed too: list them again."""
    db.execute("DELETE FROM comments WHERE finding_id = ?", (finding_id,))
    db.execute("UPDATE attachments SET seen = 0 WHERE finding_id = ?", (finding_id,))
    path = "/v1/findings/" + urllib.parse.quote(finding_id, safe="")
    try:
        for page in api.pages(path + "/comments", {"limit": PAGE}):
            for row in page["data"]:
                upsert_comment(db, row)
        listing, _, _ = api.call("GET", path + "/attachments", {"limit": PAGE})
        if listing["truncated"]:
            print(f"  {finding_id}: more than {PAGE} attachments, the rest left out")
        for row in listing["data"]:
            upsert_attachment(db, finding_id, row)
    except ApiFailure as error:
        if error.status != 404:  # hidden or deleted since: the next delta brings its removal
            raise
    sweep_unseen(db)


def delta(db, since):
    """The changes since `since`: removals applied, changed rows upserted with their threads."""
    changed, next_token = set(), None
    for page in api.pages("/v1/findings/delta", {"limit": PAGE, "delta_token": since}):
        for row in page["data"]:
            if "removed" in row:
                remove_finding(db, row["id"])
                changed.discard(row["id"])
                report["removals"] += 1
            else:
                upsert_finding(db, row)
                changed.add(row["id"])
        next_token = page.get("delta_token")
    for finding_id in sorted(changed):
        refresh_thread(db, finding_id)
    report["changed"] = len(changed)
    # Only once every page has arrived: after a crash the same delta runs again (rows repeat).
    db.execute("INSERT OR REPLACE INTO sync_state VALUES ('delta_token', ?)", (next_token,))


def main():
    os.makedirs(DIR, exist_ok=True)
    db = sqlite3.connect(os.path.join(DIR, "findings.sqlite"), isolation_level=None)
    db.executescript(SCHEMA)
    stored = db.execute("SELECT value FROM sync_state WHERE name = 'delta_token'").fetchone()
    try:
        with db:  # one transaction: a run that stops half-way leaves the previous copy intact
            db.execute("BEGIN")
            if stored is None:
                report["mode"] = "full copy"
                full_copy(db)
            else:
                report["mode"] = "delta"
                try:
                    delta(db, stored[0])
                except ApiFailure as error:
                    if not is_stale_token(error):
                        raise
                    print(f"stored delta token refused ({error.status}): full copy again")
                    report.update(mode=f"resync after {error.status}", removals=0, changed=0)
                    full_copy(db)
    except QuotaExhausted as error:
        print(f"{error}; the copy is unchanged, run again after the reset", file=sys.stderr)
        return 75
    print(
        f"{report['mode']}: {report['findings']} findings, {report['comments']} comments, "
        f"{report['attachments']} attachment rows listed; {report['changed']} changed, "
        f"{report['removals']} removals applied"
    )
    files = download_files(db, api, files_of)
    quota = " (daily quota reached)" if files["stoppedForQuota"] else ""
    print(f"files: {files['downloaded']} downloaded, {files['left']} left for the next run{quota}, "
          f"{files['gone']} gone since listed")
    counts = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("findings", "comments", "attachments")]
    print(f"copy now holds {counts[0]} findings, {counts[1]} comments, {counts[2]} attachments "
          f"in {DIR}/findings.sqlite")
    print(f"requests: {stats['requests']} ({stats['pages']} pages), retries: "
          f"{stats['retries429']} after 429, {stats['retries5xx']} after 5xx or network errors")
    print("summary " + json.dumps({**report, **files, **stats}))
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
