import { FieldValue } from "firebase-admin/firestore";

/**
 * What removal moves aside: `createdAt` (the ordered roster), `email`, `userNameKey` and
 * `externalId` (the lookups).
 */
export const ASIDE = {
  createdAt: "removedCreatedAt",
  email: "removedEmail",
  userNameKey: "removedUserNameKey",
  externalId: "removedExternalId",
} as const;

/** The writes that move a removed user's lookup fields aside (none when they already are). */
export function movedAside(data: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(ASIDE))
    if (data[from] !== undefined)
      Object.assign(fields, { [from]: FieldValue.delete(), [to]: data[from] });
  return fields;
}
