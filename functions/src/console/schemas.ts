import { z } from "../http/zod";
import { DISPLAY_PREFIX_PATTERN, KEY_APIS } from "../lib/apiKeyFormat";

/** Inputs of the console's key-management callables. */
const companyId = z
  .string({ message: "companyId is required" })
  .trim()
  .min(1, "companyId is required")
  .max(200)
  .refine((id) => !id.includes("/"), "companyId is not a valid id");
const api = z.enum(KEY_APIS, {
  message: `api must be ${KEY_APIS.map((a) => `"${a}"`).join(" or ")}`,
});

export const setApiAccessInput = z
  .object({ companyId, api, enabled: z.boolean({ message: "enabled must be true or false" }) })
  .strict();

export const createApiKeyInput = z
  .object({
    companyId,
    api,
    name: z
      .string({ message: "name is required" })
      .trim()
      .min(1, "name must be 1 to 100 characters")
      .max(100, "name must be 1 to 100 characters"),
    projectId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((id) => !id.includes("/"), "projectId is not a valid id")
      .optional(),
    scopes: z
      .array(
        z.enum(["read", "provisioning"], {
          message: 'scopes may contain "read" and "provisioning"',
        }),
      )
      .optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.api === "findings") {
      if (!input.projectId)
        ctx.addIssue({
          code: "custom",
          path: ["projectId"],
          message: "findings keys need a projectId",
        });
      if (input.scopes && (input.scopes.length !== 1 || input.scopes[0] !== "read")) {
        ctx.addIssue({
          code: "custom",
          path: ["scopes"],
          message: 'findings keys have exactly the scope ["read"]',
        });
      }
    } else {
      if (input.projectId)
        ctx.addIssue({
          code: "custom",
          path: ["projectId"],
          message: "company keys are not bound to a project",
        });
      const scopes = new Set(input.scopes ?? ["read"]);
      if (!scopes.has("read") || scopes.size !== (input.scopes ?? ["read"]).length) {
        ctx.addIssue({
          code: "custom",
          path: ["scopes"],
          message: 'company keys have ["read"] or ["read","provisioning"]',
        });
      }
    }
  })
  .transform((input) => ({
    ...input,
    scopes:
      input.api === "findings"
        ? ["read"]
        : input.scopes?.includes("provisioning")
          ? ["read", "provisioning"]
          : ["read"],
  }));

export const listApiKeysInput = z.object({ companyId, api: api.optional() }).strict();

export const revokeApiKeyInput = z
  .object({
    companyId,
    prefix: z
      .string()
      .regex(DISPLAY_PREFIX_PATTERN, "prefix is the key's first 12 characters, e.g. vfe_AbC123xy"),
  })
  .strict();

const positiveLimit = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, `${name} must be a whole number from 1 to 999999999`)
    .transform(Number)
    .optional();

/** The operator command's `limits`: an override for a company, or one of its keys (by prefix). */
export const setRateLimitsInput = z
  .object({
    companyId,
    prefix: z
      .string()
      .regex(DISPLAY_PREFIX_PATTERN, "prefix is the key's first 12 characters, e.g. csa_AbC123xy")
      .optional(),
    scope: z
      .enum(["read", "provisioning"], { message: "--scope is read or provisioning" })
      .optional(),
    perMinute: positiveLimit("--per-minute"),
    perDay: positiveLimit("--per-day"),
    clear: z.boolean(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const setting = input.perMinute !== undefined || input.perDay !== undefined;
    if (setting === input.clear)
      ctx.addIssue({ code: "custom", message: "give --per-minute and/or --per-day, or --clear" });
    if (input.scope && input.prefix)
      ctx.addIssue({
        code: "custom",
        message: "give --scope (every key of the scope) or --prefix (one key), not both",
      });
  })
  .transform(({ companyId: id, prefix, scope, perMinute, perDay, clear }) => ({
    companyId: id,
    prefix,
    scope,
    rateLimits: clear
      ? null
      : {
          ...(perMinute !== undefined ? { perMinute } : {}),
          ...(perDay !== undefined ? { perDay } : {}),
        },
  }));

export const companyInput = z.object({ companyId }).strict();
