"""Quickstart: the company API's three nightly jobs (Python 3, standard library only).

  1. incidents in SQLite, kept in sync by the delta endpoint (removals applied, 410/400 -> resync)
  2. last year's ESRS S1-14 datapoints as CSV, written to a file
  3. a month of worked hours pushed (the provisioning key; the month's value is replaced)
COMPANY_API_URL, COMPANY_READ_KEY and COMPANY_PROVISIONING_KEY say where and as whom;
WORKED_MONTH and WORKED_HOURS what to push (nothing is pushed without both). See
examples/README.md.
"""

import json
import os
import sqlite3
import sys
import uuid
from datetime import datetime, timezone

from api import ApiFailure, Client, QuotaExhausted, is_stale_token, required, stats

DIR = os.environ.get("QUICKSTART_DIR", "quickstart-data")
BASE = required("COMPANY_API_URL")
# Least privilege: the read key for the exports, the provisioning key only for the push.
reader = Client(BASE, required("COMPANY_READ_KEY"))
provisioner = Client(BASE, required("COMPANY_PROVISIONING_KEY"))

SCHEMA = """
CREATE TABLE IF NOT EXISTS incidents (id TEXT PRIMARY KEY, reference TEXT, event_date TEXT,
  status TEXT, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sync_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def incidents(db, since):
    """One delta pass: a full copy without `since` (replacing the old one), else the changes."""
    counts = {"rows": 0, "removals": 0}
    next_token = None
    with db:
        db.execute("BEGIN")
        held = db.execute("SELECT count(*) FROM incidents").fetchone()[0]
        if since is None:
            db.execute("DELETE FROM incidents")
        for page in reader.pages("/v1/incidents/delta", {"limit": 500, "delta_token": since}):
            for row in page["data"]:
                if "removed" in row:
                    db.execute("DELETE FROM incidents WHERE id = ?", (row["id"],))
                    counts["removals"] += 1
                else:
                    values = (row["id"], row["reference"], row["event_date"], row["status"])
                    db.execute(
                        "INSERT OR REPLACE INTO incidents VALUES (?, ?, ?, ?, ?)",
                        (*values, json.dumps(row)),
                    )
                    counts["rows"] += 1
            next_token = page.get("delta_token")
        if since is None:  # a resync's copy replaces the old one
            counts["removals"] = max(0, held - counts["rows"])
        db.execute("INSERT OR REPLACE INTO sync_state VALUES ('delta_token', ?)", (next_token,))
    return counts


def sync_incidents():
    db = sqlite3.connect(os.path.join(DIR, "company.sqlite"), isolation_level=None)
    try:
        db.executescript(SCHEMA)
        stored = db.execute("SELECT value FROM sync_state WHERE name = 'delta_token'").fetchone()
        since = stored[0] if stored else None
        mode = "full copy" if since is None else "delta"
        try:
            counts = incidents(db, since)
        except ApiFailure as error:
            if since is None or not is_stale_token(error):
                raise
            mode = f"resync after {error.status}"
            counts = incidents(db, None)
        held = db.execute("SELECT count(*) FROM incidents").fetchone()[0]
        print(f"incidents, {mode}: {counts['rows']} rows written, "
              f"{counts['removals']} removals applied; {held} held")
        return {"mode": mode, **counts, "held": held}
    finally:
        db.close()


def esrs_csv():
    """The CSV as served (UTF-8 with a byte order mark, CRLF), for a spreadsheet or an auditor."""
    year = datetime.now(timezone.utc).year - 1
    status, _, payload = reader.request("GET", "/v1/esrs-s1", {"year": year, "format": "csv"})
    if status != 200:
        raise ApiFailure(status, json.loads(payload or b"null"))
    path = os.path.join(DIR, f"esrs-s1-14-{year}.csv")
    with open(path, "wb") as out:
        out.write(payload)
    rows = len([line for line in payload.decode("utf-8-sig").split("\r\n") if line]) - 1
    print(f"ESRS S1-14 {year}: {rows} datapoints written to {path}")
    return {"year": year, "datapoints": rows}


def push_worked_hours():
    """The month's hours of the whole own workforce (employees and non-employees), from HR.

    Only when WORKED_MONTH and WORKED_HOURS are set: the push replaces the month's stored value,
    so a made-up default would overwrite real figures. One Idempotency-Key for the write and
    every retry of it: a retried push that had already happened answers its first answer again.
    """
    month, hours = os.environ.get("WORKED_MONTH"), os.environ.get("WORKED_HOURS")
    if not month or not hours:
        print("worked hours: skipped (set WORKED_MONTH=YYYY-MM and WORKED_HOURS to push)")
        return {"skipped": True}
    body, status, _ = provisioner.call(
        "POST",
        "/v1/worked-hours",
        body={"month": month, "hours": float(hours)},
        expect=(200, 201),
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    what = "stored" if status == 201 else "replaced the earlier value"
    print(f"worked hours {body['data']['month']}: {body['data']['hours']} h {what}")
    return {"month": month, "hours": body["data"]["hours"], "status": status}


def main():
    os.makedirs(DIR, exist_ok=True)
    try:
        summary = {
            "incidents": sync_incidents(),
            "esrs": esrs_csv(),
            "worked_hours": push_worked_hours(),
        }
    except QuotaExhausted as error:
        print(f"{error}; nothing committed, run again after the reset", file=sys.stderr)
        return 75
    print(f"requests: {stats['requests']} ({stats['pages']} pages), retries: "
          f"{stats['retries429']} after 429, {stats['retries5xx']} after 5xx or network errors")
    print("summary " + json.dumps({**summary, **stats}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
