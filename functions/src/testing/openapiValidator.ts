import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/**
 * Validates responses against an OpenAPI document (3.0 or 3.1): finds the operation by path
 * template and method, requires the status to be documented, and checks a JSON body against
 * its schema. Paths the document does not know (unknown endpoints) are not checked.
 */
type Json = Record<string, unknown>;
type Doc = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>; components?: Json };

const DOC_ID = "openapi.json";

/** OpenAPI 3.0 → JSON Schema: `nullable` becomes a `null` type; local refs point into the document. */
function toJsonSchema(node: unknown, v30: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, v30));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/")) out.$ref = `${DOC_ID}${v}`;
    else if (k !== "nullable" && k !== "example") out[k] = toJsonSchema(v, v30);
  }
  if (v30 && (node as Json).nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

export function createResponseValidator(document: Doc) {
  const v30 = document.openapi.startsWith("3.0");
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: toJsonSchema(document.components ?? {}, v30) });
  const compiled = new Map<Json, ValidateFunction>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

  return (method: string, url: string, status: number, body: unknown): void => {
    const path = url.split("?")[0];
    const match = templates.find((t) => t.regex.test(path));
    if (!match) return;
    const operation = document.paths[match.template][method.toLowerCase()];
    if (!operation) return;
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${method} ${match.template}: status ${status} is not documented`);
    const schema = (response.content?.["application/json"] ?? response.content?.["application/scim+json"])?.schema;
    if (!schema) return;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema, v30) as Json);
      compiled.set(schema, validate);
    }
    if (!validate(body)) {
      throw new Error(`${method} ${url} → ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
    }
  };
}
