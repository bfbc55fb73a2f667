import type { NextFunction, Request, Response } from "express";
import { MAX_BODY_BYTES } from "../config/constants";
import { ApiError } from "./errors";

/**
 * The body rules, checked on the raw request before authentication (so they cost no read):
 * - no `Content-Encoding` (gzip, deflate, br): 415. The Functions runtime inflates encoded bodies
 *   before the app runs, so the app cannot stop that work; the deployment's front door refuses them
 *   (docs/operations.md, "Deployment"), and this answer keeps the contract the same everywhere;
 * - at most MAX_BODY_BYTES, by `Content-Length` or by the raw body the runtime read (it parses
 *   `application/json` itself, with a limit of its own far above ours): 413.
 */
export const declaresBody = (req: Request) =>
  Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;

export function bodyGuard(req: Request, _res: Response, next: NextFunction): void {
  const encoding = req.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity" && declaresBody(req)) {
    return next(
      new ApiError(
        "unsupported_media_type",
        "Compressed request bodies are not accepted: send the body without `Content-Encoding`.",
      ),
    );
  }
  const declared = Number(req.get("content-length") ?? 0);
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (declared > MAX_BODY_BYTES || (Buffer.isBuffer(raw) && raw.length > MAX_BODY_BYTES)) {
    return next(
      new ApiError(
        "payload_too_large",
        `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
      ),
    );
  }
  next();
}
