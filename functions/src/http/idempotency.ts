import type { Request } from "express";
import { createHash } from "node:crypto";
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS } from "../config/constants";
import { canonicalJson } from "../lib/canonicalJson";
import {
  claimIdempotencyKey,
  committedChange,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from "../repos/idempotencyKeys";
import { requestPath, type Principal, type RequestContext } from "./context";
import { ApiError, invalidRequest, type ErrorCode } from "./errors";
import { answerOf, type Answer, type AnyRoute, type KeyedRoute } from "./route";
import { z } from "./zod";

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header, as Stripe): a write sent again
 * with the key it was first sent with answers the first answer (`Idempotent-Replayed: true`)
 * instead of running twice. The key is scoped to the API key; the answer is kept 24 h.
 */
const IDEMPOTENCY_HEADER = "Idempotency-Key";
const REPLAYED_HEADER = "Idempotent-Replayed";

/** The request header, as the OpenAPI documents show it on each write that takes it. */
export const idempotencyKeyHeader = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1)
    .max(257)
    .optional()
    .openapi({
      description:
        "A unique value per write (a UUID), sent again with every retry of it: within 24 h the " +
        "same request under the same key answers the first answer again, with " +
        "`Idempotent-Replayed: true`; another request under the key 422 " +
        "`idempotency_key_reused`; while the first still runs, 409 `idempotency_key_in_use`. " +
        "Scoped to the API key.",
      example: "8e03978e-40d5-43e8-bc93-6894a57f9324",
    }),
});

/** The response header of a replayed answer. */
export const REPLAYED_RESPONSE_HEADER = {
  [REPLAYED_HEADER]: {
    description: "`true` when this is the stored answer of an earlier request (Idempotency-Key).",
    schema: { type: "string" as const, enum: ["true"] },
  },
};

/** The draft sends a quoted structured-field string; Stripe's clients send the bare value. */
const KEY = /^"?([\x21\x23-\x7e]{1,255})"?$/;

type Stored =
  | { status: number; headers: Record<string, string>; body: unknown }
  | { status: number; headers: Record<string, string>; error: StoredError };
interface StoredError {
  code: ErrorCode;
  message: string;
  details: Record<string, number>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A first answer again, marked as such; an error is thrown again for the one renderer. */
function replay(text: string): Answer {
  const stored = JSON.parse(text) as Stored;
  const headers = { ...stored.headers, [REPLAYED_HEADER]: "true" };
  if ("error" in stored) {
    const { code, message, details } = stored.error;
    throw new ApiError(code, message, headers, details);
  }
  return { status: stored.status, body: stored.body, headers };
}

/**
 * A refusal the same request would meet again is kept (a 4xx of the handler); a failure a retry
 * may not meet (429, 5xx) gives the key up, so the retry runs.
 */
const keeps = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status < 500 && err.status !== 429;

/**
 * Runs a write that declares `idempotency` once per `Idempotency-Key`: the first request runs and
 * stores its answer; the same request again gets that answer; another request under the key 422;
 * while the first runs, 409. When every earlier try stopped before its answer was stored, a change
 * one of them committed answers (its audit entry, committed with it, names it); else the request
 * runs again.
 */
export async function runOnce(
  route: AnyRoute,
  idempotency: NonNullable<KeyedRoute["idempotency"]>,
  req: Request,
  ctx: RequestContext,
  principal: Principal,
  run: () => Promise<Answer>,
): Promise<Answer> {
  const sent = req.get(IDEMPOTENCY_HEADER);
  if (sent === undefined) return run();
  const key = KEY.exec(sent)?.[1];
  if (!key)
    throw invalidRequest(
      `Invalid ${IDEMPOTENCY_HEADER} header: 1 to 255 visible ASCII characters (a UUID).`,
    );
  const id = sha256(`${principal.keyHash}\u0000${key}`);
  // Canonical JSON: a client that rebuilds the body with its keys in another order is the same try.
  const fingerprint = sha256(`${req.method} ${requestPath(req)}\u0000${canonicalJson(req.body)}`);
  const claim = await claimIdempotencyKey({
    id,
    fingerprint,
    requestId: ctx.requestId,
    lockMs: IDEMPOTENCY_LOCK_MS,
    ttlMs: IDEMPOTENCY_TTL_MS,
  });
  if (claim.kind === "answered") return replay(claim.answer);
  if (claim.kind === "mismatch")
    throw new ApiError(
      "idempotency_key_reused",
      `This ${IDEMPOTENCY_HEADER} was sent with another request (method, path or body); ` +
        "use a new key for a new request.",
    );
  if (claim.kind === "in_flight") {
    const wait = Math.max(1, Math.ceil(claim.retryAfterMs / 1000));
    throw new ApiError(
      "idempotency_key_in_use",
      `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry after ${wait} s.`,
      { "Retry-After": String(wait) },
    );
  }
  let answer: Answer;
  try {
    const committed =
      claim.kind === "taken_over" && idempotency.committed
        ? await committedChange(principal.companyId, claim.earlierRequestIds)
        : null;
    answer =
      committed && idempotency.committed
        ? answerOf(route, await idempotency.committed(committed.target.id, principal, req))
        : await run();
  } catch (err) {
    if (!keeps(err)) await releaseIdempotencyKey(id, ctx.requestId);
    else {
      const error = { code: err.code, message: err.message, details: err.details };
      await storeIdempotentAnswer(
        id,
        ctx.requestId,
        JSON.stringify({ status: err.status, headers: err.headers, error }),
      );
    }
    throw err;
  }
  const { status, headers, body } = answer;
  await storeIdempotentAnswer(id, ctx.requestId, JSON.stringify({ status, headers, body }));
  return answer;
}
