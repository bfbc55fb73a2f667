import { z } from "../http/zod";
import { ROLL_EXPIRIES, type RollExpiry } from "../services/keyRoll";
import { companyInput, revokeApiKeyInput } from "./schemas";

/** Inputs of the callables the reference console (console-web/) added. */
const expiries = Object.keys(ROLL_EXPIRIES) as [RollExpiry, ...RollExpiry[]];

export const rollApiKeyInput = revokeApiKeyInput.extend({
  expiresIn: z.enum(expiries, {
    message: `expiresIn must be ${expiries.map((e) => `"${e}"`).join(", ")}`,
  }),
});

export const apiKeyUsageInput = revokeApiKeyInput;

export const AUDIT_PAGE_MAX = 100;

export const listAuditTrailInput = companyInput.extend({
  class: z
    .enum(["privileged", "operational"], {
      message: 'class must be "privileged" or "operational"',
    })
    .optional(),
  pageToken: z.string().max(400).optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(AUDIT_PAGE_MAX, `limit must be 1 to ${AUDIT_PAGE_MAX}`)
    .default(25),
});
