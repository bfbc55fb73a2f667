// The HTTP habits both quickstarts share: wait as told on 429, back off with jitter on 5xx and
// network errors, stop (instead of sleeping for hours) when the day's quota is spent, and count
// what happened so each run can say it.

/** Longest `Retry-After` worth waiting for; beyond it the day's quota is gone: resume tomorrow. */
const MAX_WAIT_SECONDS = Number(process.env.MAX_WAIT_SECONDS ?? 120);
const MAX_ATTEMPTS = 6;

export const stats = { requests: 0, pages: 0, retries429: 0, retries5xx: 0 };

/** Thrown when a 429 asks for a longer wait than MAX_WAIT_SECONDS (the daily quota is spent). */
export class QuotaExhausted extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`daily quota spent: the API asks to wait ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A failure the program cannot work around (a refused key, a bad request…). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(`HTTP ${status}${code ? ` ${code}` : ""}: ${message}`);
    this.status = status;
    this.code = code;
  }
}

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see examples/README.md)`);
  return value;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Full jitter: a random wait up to 0.5 s × 2^attempt, capped at 30 s (retry storms spread out). */
const backoffMs = (attempt: number) => Math.random() * Math.min(30_000, 500 * 2 ** attempt);

/**
 * `fetch` with the retry rules, for openapi-fetch's `fetch` option and for `content_url`. Every
 * call the API admits counts against the key's limits, so retries only happen when the answer
 * says nothing was done (429) or may not have been (5xx, no answer): GETs, and a write sent with
 * an `Idempotency-Key`, which the resent request repeats (a done write answers its first answer).
 */
export async function resilientFetch(request: Request): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    stats.requests++;
    let response: Response;
    try {
      response = await fetch(request.clone(), { redirect: "manual" });
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS) throw error;
      stats.retries5xx++;
      await sleep(backoffMs(attempt));
      continue;
    }
    if (response.status === 429) {
      const wait = Number(response.headers.get("retry-after") ?? 1);
      if (wait > MAX_WAIT_SECONDS) throw new QuotaExhausted(wait);
      stats.retries429++;
      await sleep(wait * 1000);
      continue;
    }
    if (response.status >= 500 && attempt < MAX_ATTEMPTS) {
      stats.retries5xx++;
      await sleep(backoffMs(attempt));
      continue;
    }
    return response;
  }
}

/** The request's failure, from the error envelope `{ error: { code, message } }`. */
export function failure(response: Response, body: unknown): ApiFailure {
  const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return new ApiFailure(response.status, error?.code, error?.message ?? response.statusText);
}

/** Every page of a listing: `next_page_token` until it is null (a page may be short, or empty). */
export async function* pages<T extends { next_page_token: string | null }>(
  page: (
    pageToken: string | undefined,
  ) => Promise<{ data?: T; error?: unknown; response: Response }>,
): AsyncGenerator<T> {
  let token: string | undefined;
  do {
    const { data, error, response } = await page(token);
    if (!data) throw failure(response, error);
    stats.pages++;
    yield data;
    token = data.next_page_token ?? undefined;
  } while (token);
}

/**
 * Requests left in the day, when the `RateLimit` header describes the day window (it names the
 * window with fewer requests left, so the day shows once fewer remain in it than in the minute).
 */
export function dayRemaining(response: Response): number | undefined {
  const match = /"day";r=(\d+)/.exec(response.headers.get("ratelimit") ?? "");
  return match ? Number(match[1]) : undefined;
}

/** A delta token the API no longer takes: 410 (too old, or its secret retired), or 400 (damaged). */
export function isStaleToken(error: unknown): boolean {
  return error instanceof ApiFailure && (error.status === 410 || error.status === 400);
}
