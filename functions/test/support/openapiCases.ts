import fc from "fast-check";
import {
  createGenerators,
  type Fixtures,
  type GeneratedRequest,
  type Operation,
  type Schema,
} from "./openapiRequests";

/**
 * For one operation of a served document: an arbitrary of valid requests and one of requests
 * that break exactly one documented constraint (a parameter's or a body property's schema, a
 * closed body or query, a repeated parameter, or a rule of the description via `ruleBreakers`).
 */
const serialize = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export type RuleBreaker = (request: GeneratedRequest) => GeneratedRequest | null;

export function operationCases(
  document: { components?: { schemas?: Record<string, Schema> } },
  method: string,
  template: string,
  operation: Operation,
  fixtures: Fixtures,
  ruleBreakers: RuleBreaker[],
) {
  const { valid, invalid, resolve } = createGenerators(document, fixtures);
  const parameters = operation.parameters ?? [];
  const query = parameters.filter((p) => p.in === "query");
  const pathParams = parameters.filter((p) => p.in === "path");
  const [contentType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const scim = contentType === "application/scim+json";
  const bodySchema = media ? resolve(media.schema) : undefined;
  const example = (media?.example ?? {}) as Record<string, unknown>;

  const valueOf = (name: string, schema: Schema) =>
    fixtures.value(operation.operationId, name) ?? valid(schema, operation.operationId);
  const validQuery = fc.record(
    Object.fromEntries(query.map((p) => [p.name, valueOf(p.name, p.schema)])),
    { requiredKeys: query.filter((p) => p.required).map((p) => p.name) },
  );
  const validPath = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, valueOf(p.name, p.schema)])),
  );
  // SCIM attributes the core interprets (addresses, roles, departments) come from the example; the
  // rest is generated.
  const validBody: fc.Arbitrary<unknown> = !bodySchema
    ? fc.constant(undefined)
    : valid(bodySchema, operation.operationId).map((generated) => {
        const body = { ...(generated as Record<string, unknown>) };
        for (const name of Object.keys(bodySchema.properties ?? {})) {
          if (!fixtures.keepFromExample(operation.operationId, name)) continue;
          if (name in example) body[name] = example[name];
          else delete body[name];
        }
        return body;
      });

  const request = (
    q: Record<string, unknown>,
    p: Record<string, unknown>,
    body: unknown,
  ): GeneratedRequest => ({
    method,
    template,
    path: template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(serialize(p[name])),
    ),
    query: Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, serialize(v)]),
    ...(bodySchema ? { body, contentType } : {}),
  });
  const validRequest = fc
    .tuple(validQuery, validPath, validBody)
    .map(([q, p, b]) => fixtures.repair(request(q, p, b)));

  type Mutation = fc.Arbitrary<(r: GeneratedRequest) => GeneratedRequest>;
  const mutations: Mutation[] = [];
  const swap = (list: Array<[string, string]>, name: string, value: string) => [
    ...list.filter(([k]) => k !== name),
    [name, value] as [string, string],
  ];
  for (const p of query) {
    const bad = invalid(p.schema);
    if (bad)
      mutations.push(
        bad.map(([value, why]) => (r) => ({
          ...r,
          query: swap(r.query, p.name, serialize(value)),
          violation: `query ${p.name}: ${why}`,
        })),
      );
    if ([resolve(p.schema).type].flat().includes("integer"))
      mutations.push(
        fc.constant((r) => ({
          ...r,
          query: swap(r.query, p.name, "1.5"),
          violation: `query ${p.name}: integer`,
        })),
      );
  }
  for (const p of pathParams) {
    // An empty segment addresses another resource (`/v1/users/` is the list), so minLength is not
    // broken here.
    const bad = invalid({ ...p.schema, minLength: undefined });
    if (bad)
      mutations.push(
        bad.map(([value, why]) => (r) => ({
          ...r,
          path: template.replace(`{${p.name}}`, encodeURIComponent(serialize(value))),
          violation: `path ${p.name}: ${why}`,
        })),
      );
  }
  if (operation["x-unknown-query-parameters"] === "refused")
    mutations.push(
      fc.constant((r) => ({
        ...r,
        query: [...r.query, ["no_such_parameter", "1"]],
        violation: "unknown query parameter",
      })),
    );
  mutations.push(
    fc.constant((r) => ({
      ...r,
      query: [...r.query, ["limit", "5"], ["limit", "6"]],
      violation: "repeated query parameter",
    })),
  );
  if (bodySchema) {
    mutations.push(
      fc.constant((r) => ({ ...r, body: [r.body], violation: "body: not an object" })),
    );
    for (const name of scim ? [] : (bodySchema.required ?? [])) {
      mutations.push(
        fc.constant((r) => ({
          ...r,
          body: Object.fromEntries(Object.entries(r.body as object).filter(([k]) => k !== name)),
          violation: `body: ${name} missing`,
        })),
      );
    }
    if (bodySchema.additionalProperties === false)
      mutations.push(
        fc.constant((r) => ({
          ...r,
          body: { ...(r.body as object), no_such_field: 1 },
          violation: "body: unknown field",
        })),
      );
    for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
      const bad = invalid(schema);
      if (bad)
        mutations.push(
          bad.map(([value, why]) => (r) => ({
            ...r,
            body: { ...(r.body as object), [name]: value },
            violation: `body ${name}: ${why}`,
          })),
        );
      // SCIM reads attributes leniently (RFC 7643): a value of another type is ignored, not
      // refused.
      const type = [resolve(schema).type].flat()[0];
      if (!scim && type && type !== "null")
        mutations.push(
          fc.constant((r) => ({
            ...r,
            body: { ...(r.body as object), [name]: type === "string" ? 12 : "12" },
            violation: `body ${name}: type`,
          })),
        );
    }
  }
  const ruleMutations = ruleBreakers.map((breaker) => fc.constant(breaker));
  const invalidRequest = fc
    .tuple(validRequest, fc.oneof(...mutations, ...ruleMutations))
    .map(([r, mutate]) => mutate(r))
    // A rule breaker answers null for a request it cannot break (no `from` to put `to` before).
    .filter((r): r is GeneratedRequest => r !== null && r.violation !== undefined);
  return { validRequest, invalidRequest };
}
