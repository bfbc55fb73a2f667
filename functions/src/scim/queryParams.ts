import { z } from "../http/zod";
import { MAX_FILTER_LENGTH } from "./filter";
import { MAX_RESULTS } from "./routeKit";

/** The query parameters of the SCIM Users and Groups endpoints: a GET of one, a list. */
/**
 * Attribute paths (RFC 7643 ATTRNAME, URNs) joined by commas, in ASCII: at 300 characters even
 * percent-encoded they stay small beside a `filter` of 1,000 characters (12,000 bytes at worst),
 * so the URL stays under the runtime's 16 KiB header limit (docs/development.md).
 */
const attributeList = (description: string) =>
  z
    .string()
    .max(300)
    .regex(
      /^[A-Za-z0-9:._$, -]*$/,
      "must be attribute names (letters, digits, `:._-$`) joined by commas",
    )
    .optional()
    .openapi({ description });

const projectionParams = {
  attributes: attributeList(
    "Comma-separated attribute names (e.g. `userName,name.givenName`): only these are " +
      "returned, with `id` and `schemas`.",
  ),
  excludedAttributes: attributeList(
    "Comma-separated attribute names left out of the resources (never `id` or `schemas`).",
  ),
};

/**
 * Unknown query parameters are refused (400), as the document says; `sortBy` and `sortOrder`
 * too, as in a SearchRequest body (`sort.supported` is false).
 */
export const getQuery = z.object(projectionParams).strict();

const integer = (description: string) =>
  z
    .string()
    .regex(/^[+-]?\d{1,9}$/, "must be an integer")
    .transform(Number)
    .optional()
    .openapi({
      type: "integer",
      minimum: -999_999_999,
      maximum: 999_999_999,
      description: `${description} At most nine digits.`,
    });

export const listQuery = z.strictObject({
  // The length is the filter parser's to check (a longer one is a 400 `invalidFilter`).
  filter: z
    .string()
    .optional()
    .openapi({
      maxLength: MAX_FILTER_LENGTH,
      description:
        'E.g. `userName eq "nina.holm@example.com"`. Supported: eq on userName, externalId, id, ' +
        'emails.value and emails[type eq "work"].value, joined by and.',
    }),
  startIndex: integer("1-based index of the first result (default 1; values below 1 count as 1)."),
  count: integer(`Results per page (default and maximum ${MAX_RESULTS}; negative counts as 0).`),
  ...projectionParams,
});
