import type { Express } from "express";
import request from "supertest";
import { firestore } from "../config/firebase";
import { randomId } from "./builders";

/** supertest against an app, with a fresh request id per call so audit entries can be found. */
export function client(app: Express) {
  return {
    get(path: string, key?: string, headers: Record<string, string> = {}) {
      const req = request(app).get(path).set("X-Request-Id", headers["X-Request-Id"] ?? randomId("rq"));
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      return key ? req.set("Authorization", `Bearer ${key}`) : req;
    },
    raw: () => request(app),
  };
}

export async function auditEntriesFor(companyId: string, requestId: string) {
  const snap = await firestore().collection(`companies/${companyId}/auditLogs`).where("requestId", "==", requestId).get();
  return snap.docs.map((d) => d.data());
}

export async function auditCount(companyId: string): Promise<number> {
  const snap = await firestore().collection(`companies/${companyId}/auditLogs`).count().get();
  return snap.data().count;
}

/** Every string value anywhere in a JSON body, for privacy assertions. */
export function allText(body: unknown): string {
  return JSON.stringify(body);
}
