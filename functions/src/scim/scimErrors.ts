import type { DialectResponse, ErrorDialect } from "../http/errorHandler";
import { ApiError, NotAnObjectError, type ErrorCode } from "../http/errors";
import { usersAnswer, withRefusedChange } from "../http/usersErrors";
import { z } from "../http/zod";
import { UsersError } from "../services/users/userRefusals";
import { SCIM_CONTENT_TYPE, URN } from "./routeKit";

/**
 * The `scimType` values of RFC 7644 §3.12 this service answers with, with the texts of the error
 * catalogue (`docs/errors.md`, generated from this table): when, and what the client should do.
 */
export const SCIM_TYPES = {
  uniqueness: {
    status: 409,
    when:
      "The `userName` (in the company) or the e-mail address (on the whole platform) is " +
      "taken, or a group of that `displayName` exists.",
    todo: "Find the existing resource with a filter and update it instead of creating another.",
  },
  invalidFilter: {
    status: 400,
    when: "The `filter` is malformed or uses what the service does not support; `detail` says.",
    todo: "Use `eq` on the attributes `detail` lists, joined by `and`.",
  },
  invalidValue: {
    status: 400,
    when:
      "A value is malformed, missing or out of range (an address outside the company's " +
      "domains, an unknown group member, too many values).",
    todo: "Fix the value `detail` names; do not retry unchanged.",
  },
  invalidSyntax: {
    status: 400,
    when: "The body is not valid JSON or not the SCIM message the endpoint takes.",
    todo: "Send a well-formed SCIM body.",
  },
  mutability: {
    status: 400,
    when: "The request changes a read-only attribute (`id`, `meta`, …).",
    todo: "Leave read-only attributes out of the request.",
  },
  noTarget: {
    status: 400,
    when: "A PATCH `replace` path with a value filter matched no value.",
    todo: "Use `add` to create the value, or fix the filter.",
  },
  invalidPath: {
    status: 400,
    when: "A PATCH path names an unknown attribute or sub-attribute.",
    todo: "Use the attribute names `/Schemas` lists.",
  },
  tooMany: {
    status: 400,
    when:
      "The answer would list more than 2,000 group members (a group, or a page of groups), " +
      "or a request names more than 1,000 members, or while an earlier change is still " +
      "removing a group's members a change would keep more than 5,000 of them.",
    todo:
      "Ask with `excludedAttributes=members` or a smaller `count`; check one member with " +
      '`members[value eq "<id>"]`; send members in smaller changes; send members kept ' +
      "again once the earlier change has finished (minutes).",
  },
} as const satisfies Record<string, { status: number; when: string; todo: string }>;
export type ScimType = keyof typeof SCIM_TYPES;

/** An error of the SCIM adapter: an envelope code (status, audit) plus the SCIM `scimType`. */
export class ScimError extends ApiError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly scimType?: ScimType,
    headers: Record<string, string> = {},
  ) {
    super(code, message, headers);
    this.name = "ScimError";
  }
}

export const invalidValue = (message: string) =>
  new ScimError("invalid_request", message, "invalidValue");
export const invalidSyntax = (message: string) =>
  new ScimError("invalid_request", message, "invalidSyntax");

export const scimErrorSchema = z
  .object({
    schemas: z.array(z.literal(URN.error)),
    status: z.string().openapi({ description: "The HTTP status, as a string (RFC 7644 §3.12)." }),
    scimType: z
      .enum(Object.keys(SCIM_TYPES) as [ScimType, ...ScimType[]])
      .optional()
      .openapi({ description: "For 400 and 409: the kind of error." }),
    detail: z
      .string()
      .openapi({ description: "Human-readable explanation, shown by the identity provider." }),
  })
  .openapi("ScimError");
export type ScimErrorBody = z.infer<typeof scimErrorSchema>;

/** A `scimType` for the kernel's own errors (body parsing, parameters, conflicts). */
function scimTypeOf(error: ApiError, original: unknown): ScimType | undefined {
  if (error instanceof ScimError) return error.scimType;
  // Not the structure the schema gives the message (RFC 7644 §3.12), as a body that does not parse.
  if (error instanceof NotAnObjectError) return "invalidSyntax";
  const bodyFailure = (original as { type?: unknown } | null)?.type;
  if (bodyFailure === "entity.parse.failed" || bodyFailure === "entity.encoding.invalid")
    return "invalidSyntax";
  if (error.code === "invalid_request") return "invalidValue";
  if (error.code === "conflict") return "uniqueness";
  return undefined;
}

export function scimErrorBody(error: ApiError, original?: unknown): ScimErrorBody {
  const scimType = scimTypeOf(error, original);
  return {
    schemas: [URN.error],
    status: String(error.status),
    ...(scimType ? { scimType } : {}),
    detail: error.message,
  };
}

/** A `detail` of each kind of 400 the examples show, as the service words it. */
const EXAMPLE_400: Partial<Record<ScimType, string>> = {
  invalidValue:
    '"name.givenName" must not contain control or format characters (NUL, bidi overrides, ' +
    "zero-width).",
  invalidSyntax: "The request body must be a JSON object.",
  invalidPath: '"displayName" has no sub-attributes.',
};

/**
 * A SCIM operation's 400 as the document describes it: the SCIM error body, its `scimType` by
 * kind (the /v1 text would describe an envelope these operations never answer).
 */
function documentScim(code: ErrorCode): DialectResponse | undefined {
  if (code !== "invalid_request") return undefined;
  const kinds = Object.entries(SCIM_TYPES)
    .filter(([, kind]) => kind.status === 400)
    .map(([type, kind]) => `\`${type}\`: ${kind.when}`);
  const examples = Object.entries(EXAMPLE_400).map(([type, detail]) => {
    const value = scimErrorBody(new ScimError(code, detail, type as ScimType));
    return [type, { summary: type, value }];
  });
  return {
    description:
      'A SCIM error (RFC 7644 §3.12): `schemas` (the error URN), `status` (`"400"`), ' +
      "`scimType` (the kind of error) and `detail` (what to fix, naming the attribute). " +
      `${kinds.join(" ")} Fix the request; do not retry it unchanged.`,
    examples: Object.fromEntries(examples) as DialectResponse["examples"],
  };
}

/** Every error under `/scim/v2`, the kernel's included (401, 429, 404, …), as a SCIM error body. */
export const scimErrors: ErrorDialect = {
  prefix: "/scim/v2",
  contentType: SCIM_CONTENT_TYPE,
  schema: scimErrorSchema,
  render: scimErrorBody,
  document: documentScim,
};

/** How long an identity provider should wait before retrying a user refused for want of a seat. */
export const SEAT_RETRY_AFTER_SECONDS = 600;

/**
 * The users service's refusals as SCIM errors (the statuses of /v1/users, from the same table),
 * except no free seat: 429 with Retry-After and no scimType, which Entra ID and Okta retry,
 * where a 409 reads as "already exists" (docs/scim-connector.md, "Seats").
 */
function fromUsersError(err: unknown): unknown {
  if (!(err instanceof UsersError)) return err;
  if (err.code === "seats")
    return new ScimError("seats_unavailable", err.message, undefined, {
      "Retry-After": String(SEAT_RETRY_AFTER_SECONDS),
    });
  const { code, scimType } = usersAnswer(err);
  return withRefusedChange(new ScimError(code, err.message, scimType), err);
}

/** Runs a users service call, answering its refusals as SCIM errors. */
export const asScim = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) => Promise.reject(fromUsersError(err)));
