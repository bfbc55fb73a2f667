import type { Request } from "express";
import { illFormedTextAt } from "../lib/wellFormed";
import { declaresBody } from "./context";
import { ApiError, invalidRequest } from "./errors";
import type { AnyRoute, Out } from "./route";
import type { z } from "./zod";

/**
 * A request checked against its route's schemas, once, before the handler runs: repeated query
 * parameters, the body's media type, ill-formed text, then each part's zod schema.
 */
/** `query parameter "limit": …`: names the offending parameter, never echoes long input. */
function describeIssues(location: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        const noun = issue.keys.length > 1 ? "parameters" : "parameter";
        return `Unknown ${location} ${noun} ${issue.keys.map((k) => `"${k}"`).join(", ")}.`;
      }
      const name = issue.path.length ? issue.path.join(".") : location;
      return `Invalid ${location} parameter "${name}": ${issue.message}.`.replace(/\.\.$/, ".");
    })
    .join(" ");
}

/** With the simple query parser, `?limit=5&limit=6` arrives as an array: name it, never guess. */
function refuseRepeated(query: Record<string, unknown>): void {
  const repeated = Object.keys(query).filter((name) => Array.isArray(query[name]));
  if (repeated.length) {
    throw invalidRequest(
      `Query parameter ${repeated.map((n) => `"${n.slice(0, 100)}"`).join(", ")} was ` +
        `given more than once; send each parameter at most once.`,
    );
  }
}

function parsePart<S extends z.ZodType | undefined>(
  schema: S,
  value: unknown,
  location: string,
): Out<S> {
  if (!schema) return undefined as Out<S>;
  const illFormed = illFormedTextAt(value);
  if (illFormed) {
    const name =
      illFormed
        .map((k) => k ?? "(a field name)")
        .join(".")
        .slice(0, 200) || location;
    throw invalidRequest(
      `Invalid ${location} parameter "${name}": the text is not well-formed Unicode ` +
        `(a lone UTF-16 surrogate); send UTF-8 text.`,
    );
  }
  // An absent body reads as no fields; a JSON `null` body is no object and is refused.
  const result = schema.safeParse(value === undefined ? {} : value);
  if (!result.success) throw invalidRequest(describeIssues(location, result.error));
  return result.data as Out<S>;
}

/** Validates a request against its route, once: handlers never read `req.query` or `req.body`. */
export function parseInput(
  route: AnyRoute,
  req: Request,
): { query: unknown; params: unknown; body: unknown; req: Request } {
  refuseRepeated(req.query);
  // A body in another format (a form, plain text) is refused as such, not read as missing fields.
  if (route.body && declaresBody(req) && !req.is(["application/json", "application/*+json"])) {
    const type = route.path.startsWith("/scim/") ? "application/scim+json" : "application/json";
    throw new ApiError(
      "unsupported_media_type",
      `Send the request body as JSON with \`Content-Type: ${type}\`.`,
    );
  }
  return {
    query: parsePart(route.query, req.query, "query"),
    params: parsePart(route.params, req.params, "path"),
    body: parsePart(route.body, req.body, "body"),
    req,
  };
}
