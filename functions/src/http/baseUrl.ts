import type { Request } from "express";
import { REGION } from "../config/constants";
import { projectId } from "../config/params";

/**
 * The API's base address as the caller reached it, for links that must work when followed.
 * The platform strips the function's own path prefix before our app sees the request
 * (`/findingsApi/v1` arrives as `/v1`), so the prefix is rebuilt from where the request came:
 * - the Functions emulator: `http://HOST/PROJECT/REGION/FUNCTION`;
 * - `https://REGION-PROJECT.cloudfunctions.net/FUNCTION`;
 * - the Cloud Run URL or a custom domain mapped to the function: `https://HOST`.
 * FUNCTION_TARGET is the exported function's name, set by the emulator and by firebase deploy.
 */
export function publicBaseUrl(req: Request): string {
  const host = req.get("host") ?? "localhost";
  const fn = process.env.FUNCTION_TARGET ?? "";
  if (process.env.FUNCTIONS_EMULATOR === "true")
    return `http://${host}/${projectId()}/${REGION}/${fn}`;
  if (host.endsWith(".cloudfunctions.net") && fn) return `https://${host}/${fn}`;
  const local = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host);
  return `${local ? "http" : "https"}://${host}`;
}
