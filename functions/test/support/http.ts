import type { Express } from "express";
import { randomBytes } from "node:crypto";
import request from "supertest";
import { firestore } from "../../src/config/firebase";
import { randomId } from "./builders";
import { createResponseValidator } from "./openapiValidator";

type Validator = ReturnType<typeof createResponseValidator>;
const validators = new WeakMap<Express, Promise<Validator>>();

/** The validator of the document the app itself serves at /v1/openapi.json. */
function validatorOf(app: Express): Promise<Validator> {
  let validator = validators.get(app);
  if (!validator) {
    validator = request(app)
      .get("/v1/openapi.json")
      .then((res) => createResponseValidator(res.body));
    validators.set(app, validator);
  }
  return validator;
}

/**
 * A documentation address (RFC 3849) in a /64 of its own for every request (the guard counts an
 * IPv6 client as its /64): the per-address limit on
 * failed authentications (http/refusalMemory.ts) then never couples one test's refusals to the
 * next test. Tests of that limit send their own `X-Forwarded-For`.
 */
export const randomAddress = () =>
  `2001:db8:${randomBytes(4)
    .toString("hex")
    .replace(/(....)(....)/, "$1:$2")}::1`;

/**
 * supertest against an app. `get` sends a fresh client request id (so audit entries can be
 * found by it, see auditEntriesFor) and validates every response against the served OpenAPI
 * document; `raw` is plain supertest.
 */
export function client(app: Express) {
  return {
    async get(path: string, key?: string, headers: Record<string, string> = {}) {
      const req = request(app)
        .get(path)
        .set("X-Request-Id", headers["X-Request-Id"] ?? randomId("rq"))
        .set("X-Forwarded-For", randomAddress());
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      if (key) req.set("Authorization", `Bearer ${key}`);
      const res = await req;
      (await validatorOf(app))("GET", path, res.status, res.body);
      return res;
    },
    /** Any method with a JSON body (as `contentType`), validated like `get`. */
    async send(
      method: "get" | "post" | "put" | "patch" | "delete",
      path: string,
      key: string | undefined,
      body?: unknown,
      contentType = "application/json",
      headers: Record<string, string> = {},
    ) {
      const req = request(app)
        [method](path)
        .set("X-Request-Id", randomId("rq"))
        .set("X-Forwarded-For", randomAddress());
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      if (key) req.set("Authorization", `Bearer ${key}`);
      const res = await (body === undefined
        ? req
        : req
            .set("Content-Type", contentType)
            .send(typeof body === "string" ? body : JSON.stringify(body)));
      (await validatorOf(app))(method.toUpperCase(), path, res.status, res.body);
      return res;
    },
    raw: () => request(app),
  };
}

/**
 * The audit entries of the requests sent with this `X-Request-Id` (stored as `clientRequestId`).
 */
export async function auditEntriesFor(companyId: string, clientRequestId: string) {
  const snap = await firestore()
    .collection(`companies/${companyId}/auditLogs`)
    .where("clientRequestId", "==", clientRequestId)
    .get();
  return snap.docs.map((d) => d.data());
}

export async function auditCount(companyId: string): Promise<number> {
  const snap = await firestore().collection(`companies/${companyId}/auditLogs`).count().get();
  return snap.data().count;
}

/**
 * Every page of a list endpoint: `fetchPage` from `path` (which may carry a query), then from
 * each `next_page_token` until there is none. A page that is not 200, or more than `maxPages`
 * requests (a token that loops), fails with what was answered.
 */
export async function allPages<B extends { next_page_token?: string | null }>(
  fetchPage: (path: string) => Promise<{ status: number; body: B }>,
  path: string,
  maxPages = 100,
): Promise<B[]> {
  const base = path.replace(/\?$/, "");
  const pages: B[] = [];
  let token: string | null | undefined = null;
  do {
    if (pages.length >= maxPages)
      throw new Error(`${path}: still a next_page_token after ${maxPages} pages`);
    const res = await fetchPage(
      token
        ? `${base}${base.includes("?") ? "&" : "?"}page_token=${encodeURIComponent(token)}`
        : base,
    );
    if (res.status !== 200)
      throw new Error(
        `${path}: page ${pages.length + 1} answered ${res.status} ${JSON.stringify(res.body)}`,
      );
    pages.push(res.body);
    token = res.body.next_page_token;
  } while (token);
  return pages;
}
