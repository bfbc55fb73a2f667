"""The HTTP habits both quickstarts share, with the standard library only.

Wait as told on 429, back off with jitter on 5xx and network errors, stop (instead of sleeping
for hours) when the day's quota is spent, and count what happened so each run can say it.
"""

import json
import os
import random
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

# Longest Retry-After worth waiting for; beyond it the day's quota is gone: resume tomorrow.
MAX_WAIT_SECONDS = float(os.environ.get("MAX_WAIT_SECONDS", "120"))
MAX_ATTEMPTS = 6

stats = {"requests": 0, "pages": 0, "retries429": 0, "retries5xx": 0}


class QuotaExhausted(Exception):
    """A 429 asked for a longer wait than MAX_WAIT_SECONDS: the daily quota is spent."""

    def __init__(self, retry_after):
        super().__init__(f"daily quota spent: the API asks to wait {retry_after:.0f} s")


class ApiFailure(Exception):
    """A refusal the program cannot work around; `code` is the error envelope's."""

    def __init__(self, status, body):
        error = body.get("error", {}) if isinstance(body, dict) else {}
        self.status = status
        self.code = error.get("code")
        super().__init__(f"HTTP {status} {self.code or ''}: {error.get('message', body)}")


def is_stale_token(error):
    # 410 resync_required: older than 30 days, or signed with a secret retired after a rotation.
    # 400: a token the API cannot read (damaged in storage). Either way the way on is a full copy.
    return isinstance(error, ApiFailure) and error.status in (400, 410)


def required(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"set {name} (see examples/README.md)")
    return value


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """content_url answers 302: read the fresh link ourselves rather than follow it."""

    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_KeepRedirects)


def _backoff(attempt):
    """Full jitter: a random wait up to 0.5 s x 2^attempt, capped at 30 s."""
    time.sleep(random.uniform(0, min(30.0, 0.5 * 2**attempt)))


def day_remaining(headers):
    """Requests left in the day, when the RateLimit header describes the day window."""
    match = re.search(r'"day";r=(\d+)', headers.get("RateLimit", ""))
    return int(match.group(1)) if match else None


class Client:
    def __init__(self, base_url, key):
        self.base_url = base_url.rstrip("/")
        self.key = key

    def request(self, method, path, query=None, body=None, headers=None):
        """(status, headers, bytes), retried on 429 (as told), 5xx and network errors.

        Retries only happen when nothing was done (429) or may not have been (5xx, no answer):
        GETs, and a write sent with an `Idempotency-Key` (`headers`), which the retry repeats.
        """
        url = path if path.startswith("http") else self.base_url + path
        if query:
            pairs = {k: v for k, v in query.items() if v is not None}
            url += "?" + urllib.parse.urlencode(pairs)
        data = None if body is None else json.dumps(body).encode()
        headers = {
            **(headers or {}),
            "Authorization": f"Bearer {self.key}",
            "Accept": "application/json",
        }
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(1, MAX_ATTEMPTS + 1):
            stats["requests"] += 1
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with _opener.open(request, timeout=60) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                status, answer_headers, payload = error.code, error.headers, error.read()
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                if attempt == MAX_ATTEMPTS:
                    raise
                stats["retries5xx"] += 1
                _backoff(attempt)
                continue
            if status == 429:
                wait = float(answer_headers.get("Retry-After", "1"))
                if wait > MAX_WAIT_SECONDS:
                    raise QuotaExhausted(wait)
                stats["retries429"] += 1
                time.sleep(wait)
                continue
            if status >= 500 and attempt < MAX_ATTEMPTS:
                stats["retries5xx"] += 1
                _backoff(attempt)
                continue
            return status, answer_headers, payload
        raise AssertionError("unreachable")

    def call(self, method, path, query=None, body=None, expect=(200,), headers=None):
        """The JSON answer, or ApiFailure for any other status than `expect`."""
        status, headers, payload = self.request(method, path, query, body, headers)
        document = json.loads(payload) if payload else None
        if status not in expect:
            raise ApiFailure(status, document)
        return document, status, headers

    def pages(self, path, query):
        """Every page of a listing: next_page_token until it is null (pages may be short)."""
        token = None
        while True:
            page, _, _ = self.call("GET", path, {**query, "page_token": token})
            stats["pages"] += 1
            yield page
            token = page.get("next_page_token")
            if not token:
                return
