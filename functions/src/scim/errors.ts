import type { ErrorDialect } from "../http/errorHandler";
import { ApiError, type ErrorCode } from "../http/errors";
import { usersAnswer, withRefusedChange } from "../http/usersErrors";
import { z } from "../http/zod";
import { UsersError } from "../services/users";
import { SCIM_CONTENT_TYPE, URN } from "./schema";

/** The `scimType` values of RFC 7644 §3.12 this service answers with. */
export type ScimType =
  | "uniqueness"
  | "invalidFilter"
  | "invalidValue"
  | "invalidSyntax"
  | "mutability"
  | "noTarget"
  | "invalidPath"
  | "tooMany";

/** An error of the SCIM adapter: an envelope code (status, audit) plus the SCIM `scimType`. */
export class ScimError extends ApiError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(code, message);
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
      .enum([
        "uniqueness",
        "invalidFilter",
        "invalidValue",
        "invalidSyntax",
        "mutability",
        "noTarget",
        "invalidPath",
        "tooMany",
      ])
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
  if ((original as { type?: unknown } | null)?.type === "entity.parse.failed")
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

/** Every error under `/scim/v2`, the kernel's included (401, 429, 404, …), as a SCIM error body. */
export const scimErrors: ErrorDialect = {
  prefix: "/scim/v2",
  contentType: SCIM_CONTENT_TYPE,
  schema: scimErrorSchema,
  render: scimErrorBody,
};

/** The users service's refusals as SCIM errors (the statuses of /v1/users, from the same table). */
function fromUsersError(err: unknown): unknown {
  if (!(err instanceof UsersError)) return err;
  const { code, scimType } = usersAnswer(err);
  return withRefusedChange(new ScimError(code, err.message, scimType), err);
}

/** Runs a users service call, answering its refusals as SCIM errors. */
export const asScim = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) => Promise.reject(fromUsersError(err)));
