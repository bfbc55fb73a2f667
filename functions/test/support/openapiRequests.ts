import fc from "fast-check";
import { z } from "../../src/http/zod";
import { INSTANT_PATTERN } from "../../src/lib/dates";
import { MONTH_PATTERN } from "../../src/lib/months";
import { TOKEN_PATTERN } from "../../src/lib/pageToken";

/**
 * Requests generated from an OpenAPI document's parameter and body schemas (fast-check), for the
 * property-based test: valid ones, which the API must not refuse with a 400, and ones that break
 * exactly one documented constraint, which it must refuse with a 4xx.
 *
 * Generation follows the schemas. Where the document says validity depends on stored data or on
 * a described rule (a department must exist, a page_token must be one the API issued, `to` after
 * `from`), `Fixtures` supplies the value or the repair, each said so in the test.
 */
type Json = Record<string, unknown>;
export type Schema = Json & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};
type Parameter = {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  schema: Schema;
};
export type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Json;
  "x-unknown-query-parameters"?: "refused" | "ignored";
};

export interface GeneratedRequest {
  method: string;
  template: string;
  path: string;
  /** Pairs, so a parameter can be repeated. */
  query: Array<[string, string]>;
  body?: unknown;
  contentType?: string;
  /** For an invalid request: the constraint it breaks. */
  violation?: string;
}

export interface Fixtures {
  /**
   * Values for parameters and body properties whose validity depends on data (by operation and
   * name), else undefined.
   */
  value: (operationId: string, name: string) => fc.Arbitrary<unknown> | undefined;
  /** Body properties kept from the document's example (SCIM attributes the core interprets). */
  keepFromExample: (operationId: string, property: string) => boolean;
  /**
   * Repairs a valid request so that it keeps the rules the description states (`to` after `from`,
   * …).
   */
  repair: (request: GeneratedRequest) => GeneratedRequest;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const NON_BLANK = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);

/**
 * Values of the patterns the documents use, generated as the description reads them (real dates,
 * past months).
 */
const PATTERNS: Record<string, () => fc.Arbitrary<string>> = {
  [INSTANT_PATTERN]: () =>
    fc
      .tuple(
        fc.date({
          min: new Date("1990-01-01T00:00:00Z"),
          max: new Date("2030-12-31T23:59:59Z"),
          noInvalidDate: true,
        }),
        fc.boolean(),
      )
      .map(([d, dateOnly]) =>
        dateOnly ? d.toISOString().slice(0, 10) : d.toISOString().replace(".000Z", "Z"),
      ),
  [MONTH_PATTERN]: () =>
    fc
      .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date(), noInvalidDate: true })
      .map((d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`),
  "\\S": () => NON_BLANK,
};

/** Values that do not match each pattern. */
const PATTERN_VIOLATIONS: Record<string, string[]> = {
  [INSTANT_PATTERN]: ["yesterday", "2026-03-01T08:30:00+02:00", "2026-03-01 08:30:00Z"],
  [MONTH_PATTERN]: ["2026-13", "1899-12", "2026-1"],
  "\\S": ["", "   "],
  [z.regexes.email.source]: ["not-an-address", "a!b@example.com", '"quoted"@example.com'],
  [TOKEN_PATTERN.source]: ["not a token", "t\u00f6ken", "a/b+c="],
  // SCIM attribute lists (scim/userWire.ts): ASCII attribute paths joined by commas.
  ["^[A-Za-z0-9:._$, -]*$"]: ["name;givenName", "\u00e9mails", "userName/emails"],
};

export function createGenerators(
  document: { components?: { schemas?: Record<string, Schema> } },
  fixtures: Fixtures,
) {
  const resolve = (schema: Schema): Schema =>
    schema.$ref
      ? resolve(document.components?.schemas?.[schema.$ref.split("/").pop() ?? ""] ?? {})
      : schema;
  const typeOf = (schema: Schema) => [schema.type ?? []].flat().find((t) => t !== "null");
  const nullable = (schema: Schema) =>
    schema.nullable === true || [schema.type].flat().includes("null");

  function valid(raw: Schema, operationId = ""): fc.Arbitrary<unknown> {
    const schema = resolve(raw);
    const value = validNonNull(schema, operationId);
    return nullable(schema) ? fc.option(value, { nil: null, freq: 4 }) : value;
  }

  function validNonNull(schema: Schema, operationId: string): fc.Arbitrary<unknown> {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    switch (typeOf(schema)) {
      case "string": {
        if (schema.format === "email")
          return fc
            .tuple(fc.stringMatching(/^[a-z0-9]{1,20}$/), fc.stringMatching(/^[a-z]{1,12}$/))
            .map(([local, host]) => `${local}@${host}.example`);
        if (typeof schema.pattern === "string") {
          const pattern = PATTERNS[schema.pattern];
          if (!pattern) throw new Error(`no generator for the pattern ${schema.pattern}`);
          return pattern().filter(
            (s) =>
              s.length <= ((schema.maxLength as number) ?? Infinity) &&
              s.length >= ((schema.minLength as number) ?? 0),
          );
        }
        return fc.string({
          minLength: (schema.minLength as number) ?? 0,
          maxLength: Math.min((schema.maxLength as number) ?? 40, 60),
        });
      }
      case "integer":
        return fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 });
      case "number":
        return fc.double({
          min: min ?? -1e9,
          max: max ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(schema.items ? valid(schema.items) : fc.jsonValue(), {
          minLength: (schema.minItems as number) ?? 0,
          maxLength: Math.min((schema.maxItems as number) ?? 3, 3),
        });
      case "object": {
        const properties = Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([name, s]) => [
            name,
            fixtures.value(operationId, name) ?? valid(s, operationId),
          ]),
        );
        return fc.record(properties, {
          requiredKeys: (schema.required ?? []).filter((name) => name in properties),
        });
      }
      default:
        return fc.jsonValue();
    }
  }

  /** One value that breaks one constraint of the schema, or null when it has none to break. */
  function invalid(raw: Schema): fc.Arbitrary<[unknown, string]> | null {
    const schema = resolve(raw);
    const options: Array<fc.Arbitrary<[unknown, string]>> = [];
    const type = typeOf(schema);
    const long = (n: number) => fc.integer({ min: n + 1, max: n + 5 }).map((k) => "x".repeat(k));
    if (schema.enum) options.push(fc.constant(["not-one-of-them", "enum"]));
    if (type === "string" && typeof schema.maxLength === "number")
      options.push(long(schema.maxLength).map((s) => [s, "maxLength"]));
    if (type === "string" && (schema.minLength as number) > 0)
      options.push(fc.constant(["", "minLength"]));
    if (type === "string" && typeof schema.pattern === "string")
      options.push(
        fc.constantFrom(...(PATTERN_VIOLATIONS[schema.pattern] ?? [])).map((s) => [s, "pattern"]),
      );
    if ((type === "integer" || type === "number") && typeof schema.maximum === "number")
      options.push(fc.constant([schema.maximum + 1, "maximum"]));
    if ((type === "integer" || type === "number") && typeof schema.minimum === "number")
      options.push(fc.constant([schema.minimum - 1, "minimum"]));
    if (type === "array" && typeof schema.maxItems === "number")
      options.push(
        fc.constant([Array.from({ length: schema.maxItems + 1 }, () => ({})), "maxItems"]),
      );
    if (type === "array" && (schema.minItems as number) > 0)
      options.push(fc.constant([[], "minItems"]));
    return options.length ? fc.oneof(...options) : null;
  }

  return { valid, invalid, resolve };
}
