import express from "express";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { sendJson } from "../../src/http/sendJson";

function appSending(body: unknown, settled?: (err?: unknown) => void) {
  const app = express();
  app.get("/", (_req, res) => {
    sendJson(res, body).then(() => settled?.(), settled);
  });
  return app;
}

const row = (i: number) => ({ id: `f${i}`, title: `Finding ${i} — ünïcødé ✓ "quoted" \\ back`, items: Array.from({ length: 20 }, (_, j) => ({ j, text: "x".repeat(40) })) });

describe("sendJson: a page goes out in pieces, byte for byte JSON.stringify", () => {
  const cases: Array<[string, unknown]> = [
    ["a big page (many 64 KiB chunks) with a token", { data: Array.from({ length: 600 }, (_, i) => row(i)), next_page_token: "tok_123" }],
    ["the end of the export (null token)", { data: [row(1), row(2)], next_page_token: null }],
    ["an empty page", { data: [], next_page_token: "t" }],
    ["one row", { data: [row(7)], next_page_token: null }],
    ["a page with more members", { data: [row(1), row(2)], next_page_token: null, truncated: true }],
    ["a plain body", { data: { id: "p1" } }],
    ["rows that stringify to nothing become null, as in an array", { data: [1, undefined, () => 1, 2] }],
  ];
  it.each(cases)("%s", async (_name, body) => {
    const res = await request(appSending(body)).get("/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.text).toBe(JSON.stringify(body));
  });

  it("a caller that goes away mid-page ends the send instead of leaving it waiting", async () => {
    let settle!: (err?: unknown) => void;
    const finished = new Promise<unknown>((resolve) => (settle = resolve));
    const server = appSending({ data: Array.from({ length: 20_000 }, (_, i) => row(i)), next_page_token: null }, settle).listen(0);
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = httpRequest({ port, path: "/" }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.end();
    });
    await expect(finished).resolves.toBeUndefined();
    server.close();
  });
});
