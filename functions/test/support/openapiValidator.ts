import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/**
 * Validates responses against an OpenAPI document (3.0 or 3.1): finds the operation by path
 * template and method, requires the status to be documented, and checks a JSON body against
 * its schema. Paths the document does not know (unknown endpoints) are not checked.
 */
type Json = Record<string, unknown>;
type Operation = {
  requestBody?: { content: Record<string, { schema?: Json; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components?: Json };

const DOC_ID = "openapi.json";

/**
 * OpenAPI 3.0 → JSON Schema: `nullable` becomes a `null` type; local refs point into the document.
 */
function toJsonSchema(node: unknown, v30: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, v30));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/")) out.$ref = `${DOC_ID}${v}`;
    else if (k !== "nullable" && k !== "example" && !k.startsWith("x-"))
      out[k] = toJsonSchema(v, v30);
  }
  if (v30 && (node as Json).nullable === true && typeof out.type === "string")
    out.type = [out.type, "null"];
  return out;
}

/**
 * An ajv that knows the document's components, and a compiler of its schemas (each compiled once).
 */
function compilerFor(document: Doc) {
  const v30 = document.openapi.startsWith("3.0");
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: toJsonSchema(document.components ?? {}, v30) });
  const compiled = new Map<Json, ValidateFunction>();
  const compile = (schema: Json) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema, v30) as Json);
      compiled.set(schema, validate);
    }
    return validate;
  };
  return { ajv, compile };
}

const mediaTypeOf = (contentType: string) => contentType.split(";")[0].trim().toLowerCase();

/**
 * `(method, url, status, body, contentType?)` throws unless the status is documented for the
 * operation and the body matches the schema of its media type. With `contentType` (the response's
 * header; undefined when it had none) the media type must be one the response documents, and a
 * response documented without content must have none.
 */
export function createResponseValidator(document: Doc) {
  const { ajv, compile } = compilerFor(document);
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

  return (
    method: string,
    url: string,
    status: number,
    body: unknown,
    contentType?: string | null,
  ): void => {
    const path = url.split("?")[0];
    const match = templates.find((t) => t.regex.test(path));
    if (!match) return;
    const operation = document.paths[match.template][method.toLowerCase()];
    if (!operation) return;
    const response = operation.responses[String(status)];
    if (!response)
      throw new Error(`${method} ${match.template}: status ${status} is not documented`);
    const documented = Object.keys(response.content ?? {});
    if (contentType !== undefined) {
      if (!documented.length && contentType)
        throw new Error(
          `${method} ${match.template} → ${status}: documented without a body, answered ${contentType}`,
        );
      if (documented.length && !documented.includes(mediaTypeOf(contentType ?? ""))) {
        throw new Error(
          `${method} ${match.template} → ${status}: content type ${contentType} is not one of ${documented.join(", ")}`,
        );
      }
    }
    const media = contentType ? mediaTypeOf(contentType) : undefined;
    const schema = (
      media && media.endsWith("json")
        ? response.content?.[media]
        : (response.content?.["application/json"] ?? response.content?.["application/scim+json"])
    )?.schema;
    if (!schema || (media !== undefined && !media.endsWith("json"))) return;
    const validate = compile(schema);
    if (!validate(body)) {
      throw new Error(
        `${method} ${url} → ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`,
      );
    }
  };
}

type MediaType = {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
};

/**
 * Every example of the document's request and response bodies that does not match its schema, and
 * every body without one.
 */
export function exampleProblems(document: Doc): string[] {
  const { ajv, compile } = compilerFor(document);
  const problems: string[] = [];
  const check = (where: string, media: MediaType) => {
    const values = media.examples
      ? Object.entries(media.examples).map(([name, e]) => [name, e.value] as const)
      : media.example !== undefined
        ? [["example", media.example] as const]
        : [];
    if (!values.length) problems.push(`${where}: no example`);
    for (const [name, value] of values) {
      const validate = compile(media.schema ?? {});
      if (!validate(value)) problems.push(`${where} (${name}): ${ajv.errorsText(validate.errors)}`);
    }
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        check(`${method.toUpperCase()} ${path} request ${type}`, media);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {}))
          check(`${method.toUpperCase()} ${path} ${status} ${type}`, media);
      }
    }
  }
  return problems;
}
