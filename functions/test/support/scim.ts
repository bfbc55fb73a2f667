import express, { type Express } from "express";
import type { IncomingMessage } from "node:http";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { seedCompany, seedProvisioningKey } from "./builders";
import { client } from "./http";

/**
 * An app as the Cloud Functions runtime serves it: the platform parses `application/json`
 * itself (up to 1 GB, inflating gzip and deflate bodies) and hands every other body over as
 * a raw Buffer (so `application/scim+json` reaches the app unparsed, as in production), the
 * bytes it read kept as `req.rawBody`.
 */
export function asInFunctionsRuntime(app: Express): Express {
  const platform = express();
  const verify = (req: IncomingMessage, _res: unknown, buf: Buffer) =>
    Object.assign(req, { rawBody: buf });
  platform.use(
    express.json({ type: "application/json", limit: "1gb", verify }),
    express.raw({ type: "*/*", limit: "1gb", verify }),
  );
  platform.use(app);
  return platform;
}

export const scimApi = client(asInFunctionsRuntime(createCompanyApp()));

/**
 * A SCIM request as identity providers send it: `application/scim+json`, validated against the
 * served OpenAPI document.
 */
export const scim = (
  method: "get" | "post" | "put" | "patch" | "delete",
  path: string,
  key: string,
  body?: unknown,
) => scimApi.send(method, `/scim/v2${path}`, key, body, "application/scim+json");

/**
 * A company with the company API on, departments Deck and Engine, a role map, and a provisioning
 * key; `extra`: more company fields.
 */
export async function scimCompany(
  seats: { seatCapacity: number; seatsUsed: number } = { seatCapacity: 10, seatsUsed: 0 },
  extra: Record<string, unknown> = {},
) {
  const companyId = await seedCompany({
    ...seats,
    provisioningRoleMap: {
      Inspector: "inspector",
      "Fleet Manager": "manager",
      Manager: "manager",
      Owner: "owner",
    },
    ...extra,
  });
  await Promise.all([
    firestore()
      .doc(`companies/${companyId}/departments/dep-deck`)
      .set({ name: "Deck", parentId: null }),
    firestore()
      .doc(`companies/${companyId}/departments/dep-engine`)
      .set({ name: "Engine", parentId: null }),
  ]);
  const key = await seedProvisioningKey(companyId);
  return { companyId, key };
}

/** A PatchOp body of these operations. */
export const patchOp = (...Operations: unknown[]) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
  Operations,
});

/**
 * No free seat, as the providers need it: a 429 to retry after 600 s, a SCIM error without
 * `scimType` naming the capacity.
 */
export function expectSeatRetry(
  res: { status: number; headers: Record<string, string>; body: unknown },
  capacity: number,
): void {
  expect(res.status).toBe(429);
  expect(res.headers["retry-after"]).toBe("600");
  expect(res.headers["content-type"]).toMatch(/^application\/scim\+json/);
  expect(res.body).toEqual({
    schemas: [URN.error],
    status: "429",
    detail: expect.stringContaining(`all ${capacity} seats`),
  });
}
