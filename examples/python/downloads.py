"""The files of the copy, fetched through each row's content_url within the key's quota.

A listing's download_url lives 15 minutes, far less than 20,000 downloads take, so the copy keeps
content_url only and asks it for a fresh link right before each download (one request against
the key's limits per file, like any other). Downloads stop for the day when the RateLimit header
shows the day nearly spent (DAY_RESERVE requests are left for the nightly delta) or a 429 asks to
wait past MAX_WAIT_SECONDS; the next run resumes where this one stopped.
"""

import json
import os
import re
import shutil
import time
import urllib.error
import urllib.request
from datetime import datetime

from api import ApiFailure, QuotaExhausted, day_remaining

DAY_RESERVE = int(os.environ.get("DAY_RESERVE", "50"))
# files (default): fetch each file. links: save each fresh link in <name>.link instead; for the
# local demo stack, whose links are signed with a throwaway key and download nothing.
MODE = os.environ.get("DOWNLOAD_MODE", "files")
EXPIRY_MARGIN = 60  # seconds: a link this close to its expiry is renewed before use


def fresh_link(api, content_url):
    """content_url answers 302 with the link in Location and in the body; 404 if gone."""
    status, headers, payload = api.request("GET", content_url)
    body = json.loads(payload) if payload else None
    if status == 404:
        return None, day_remaining(headers)
    if status != 302:
        raise ApiFailure(status, body)
    return body, day_remaining(headers)


def fetch_linked(api, link, content_url, target):
    """Streams the file to `target`; the link needs no key. Renewed once if stale or refused."""
    for _ in range(2):
        expires = datetime.fromisoformat(link["download_url_expires_at"].replace("Z", "+00:00"))
        if expires.timestamp() - time.time() > EXPIRY_MARGIN:
            try:
                with urllib.request.urlopen(link["download_url"], timeout=300) as response:
                    with open(target, "wb") as out:
                        shutil.copyfileobj(response, out)
                return
            except urllib.error.HTTPError as error:  # 400/403: expired or invalid signature
                if error.code not in (400, 403):
                    raise
        link, _ = fresh_link(api, content_url)
        if link is None:
            raise RuntimeError(f"{content_url} is gone")
    raise RuntimeError(f"download of {content_url} failed with a fresh link")


def download_files(db, api, files_of):
    """Each file through a link asked for right before it (links live 15 minutes), within quota."""
    result = {"downloaded": 0, "left": 0, "gone": 0, "stoppedForQuota": False}
    pending = db.execute(
        """SELECT finding_id, attachment_id, file_name, content_url FROM attachments
           WHERE file IS NULL
           AND (download_error IS NULL OR download_error = 'signing_failed')
           ORDER BY finding_id, attachment_id"""
    ).fetchall()
    for index, (finding_id, key, file_name, content_url) in enumerate(pending):
        try:
            link, remaining = fresh_link(api, content_url)
        except QuotaExhausted:
            result.update(stoppedForQuota=True, left=len(pending) - index)
            break
        if link is None:
            result["gone"] += 1  # deleted or hidden since it was listed: the next delta says so
            continue
        os.makedirs(files_of(finding_id), exist_ok=True)
        # The key first, so two files of one name never collide; the name keeps its extension.
        name = f"{key}-{file_name}" if file_name else key
        target = os.path.join(files_of(finding_id), re.sub(r"[^A-Za-z0-9._-]", "_", name))
        if MODE == "links":
            target += ".link"
            with open(target, "w") as out:
                out.write(link["download_url"] + "\n")
        else:
            fetch_linked(api, link, content_url, target)
        db.execute(
            "UPDATE attachments SET file = ? WHERE finding_id = ? AND attachment_id = ?",
            (target, finding_id, key),
        )
        result["downloaded"] += 1
        if remaining is not None and remaining <= DAY_RESERVE:
            result.update(stoppedForQuota=True, left=len(pending) - index - 1)
            break
    return result
