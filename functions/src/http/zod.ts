import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * The one zod instance of the code base, extended with `.openapi()` so the schemas that
 * validate are the schemas that document. Import `z` from here, never from "zod".
 */
extendZodWithOpenApi(z);

export { z };

/** An instant on the wire: ISO-8601 in UTC with milliseconds. */
export const isoTimestamp = z
  .string()
  .openapi({ format: "date-time", example: "2026-03-01T08:30:00.000Z" });

/**
 * A free-form JSON object. Documented as `additionalProperties: true`: zod's record of
 * unknown would render as a type-less nullable schema, which OpenAPI 3.0 forbids.
 */
export const jsonObject = () =>
  z.record(z.string(), z.unknown()).openapi({ type: "object", additionalProperties: true });
