import express from "express";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { setContext } from "../../src/http/context";
import { errorHandler } from "../../src/http/errorHandler";
import { MAX_ROW_TEXT, RowText, pageRow } from "../../src/http/paging";
import { sendJson } from "../../src/http/pipeline";
import { logger } from "../support/logger";

function appSending(body: unknown, settled?: (err?: unknown) => void) {
  const app = express();
  app.get("/", (_req, res) => {
    // Without `settled`, a rejection stays unhandled and fails the run, as it should.
    void sendJson(res, body).then(() => settled?.(), settled);
  });
  return app;
}

const row = (i: number) => ({
  id: `f${i}`,
  title: `Finding ${i} — ünïcødé ✓ "quoted" \\ back`,
  items: Array.from({ length: 20 }, (_, j) => ({ j, text: "x".repeat(40) })),
});

describe("sendJson: a page goes out in pieces, byte for byte JSON.stringify", () => {
  const cases: Array<[string, unknown]> = [
    [
      "a big page (many 64 KiB chunks) with a token",
      { data: Array.from({ length: 600 }, (_, i) => row(i)), next_page_token: "tok_123" },
    ],
    ["the end of the export (null token)", { data: [row(1), row(2)], next_page_token: null }],
    ["an empty page", { data: [], next_page_token: "t" }],
    ["one row", { data: [row(7)], next_page_token: null }],
    [
      "a page with more members",
      { data: [row(1), row(2)], next_page_token: null, truncated: true },
    ],
    ["a plain body", { data: { id: "p1" } }],
    [
      "rows that stringify to nothing become null, as in an array",
      { data: [1, undefined, () => 1, 2] },
    ],
  ];
  it("rows already in their JSON text (RowText) go out as that text, among plain rows", async () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(i));
    const body = {
      data: rows.map((r, i) => (i % 3 ? new RowText(JSON.stringify(r)) : r)),
      next_page_token: "tok_9",
    };
    const res = await request(appSending(body)).get("/");
    expect(res.text).toBe(JSON.stringify({ data: rows, next_page_token: "tok_9" }));
    // Serialized by anything else, a RowText is the same JSON.
    expect(JSON.stringify(body)).toBe(res.text);
  });

  it.each(cases)("%s", async (_name, body) => {
    const res = await request(appSending(body)).get("/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.text).toBe(JSON.stringify(body));
  });

  it("a caller gone before the page is ready: the send ends at once", async () => {
    let settle!: (err?: unknown) => void;
    const finished = new Promise<unknown>((resolve) => (settle = resolve));
    const app = express();
    app.get("/", (req, res) => {
      // The handler is still reading when the caller leaves.
      req.socket.once(
        "close",
        () =>
          void sendJson(res, {
            data: Array.from({ length: 2_000 }, (_, i) => row(i)),
            next_page_token: null,
          }).then(() => settle(), settle),
      );
    });
    const server = app.listen(0);
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ port, path: "/" });
    req.on("error", () => undefined);
    req.end();
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    await expect(finished).resolves.toBeUndefined();
    server.close();
  });

  it("a caller that goes away mid-page ends the send instead of leaving it waiting", async () => {
    let settle!: (err?: unknown) => void;
    const finished = new Promise<unknown>((resolve) => (settle = resolve));
    const server = appSending(
      { data: Array.from({ length: 20_000 }, (_, i) => row(i)), next_page_token: null },
      settle,
    ).listen(0);
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

describe("a page that fails after its first bytes", () => {
  it("breaks the connection instead of ending a truncated body as if complete", async () => {
    const app = express();
    app.use((_req, res, next) => {
      setContext(res, { requestId: "req_0", clientRequestId: null, api: "findings" });
      next();
    });
    const poisoned = {
      toJSON: () => {
        throw new Error("unserialisable row");
      },
    };
    const data = [...Array.from({ length: 200 }, (_, i) => row(i)), poisoned];
    app.get("/", (_req, res, next) => {
      sendJson(res, { data, next_page_token: null }).catch(next);
    });
    app.use(errorHandler());
    const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
    const server = app.listen(0);
    const { port } = server.address() as AddressInfo;
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ port, path: "/" }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => resolve("complete"));
        res.on("error", () => resolve("broken"));
        res.on("aborted", () => resolve("broken"));
      });
      req.on("error", () => resolve("broken"));
      req.end();
    });
    server.close();
    expect(outcome).toBe("broken");
    expect(error).toHaveBeenCalledWith(
      "api.request_failed",
      expect.any(Error),
      expect.objectContaining({ event: "api.request_failed", requestId: "req_0" }),
    );
    error.mockRestore();
  });
});

describe("pageRow: a page's row as it arrives", () => {
  const show = pageRow((doc: { hidden: boolean; title: string }) => ({ title: doc.title }));

  it("a hidden row is null; a shown one is its JSON text", () => {
    expect(show({ hidden: true, title: "x" })).toBeNull();
    const row = show({ hidden: false, title: "Corroded pipe ✓" });
    expect(row).toBeInstanceOf(RowText);
    expect((row as RowText<unknown>).text).toBe('{"title":"Corroded pipe ✓"}');
  });

  it("a row whose text would be long (control characters escape to six) stays an object", () => {
    // 3,000 characters stored, 18,000 as JSON text: held as text, six times the stored size.
    const title = "\u0001".repeat(3000);
    const row = show({ hidden: false, title });
    expect(row).toEqual({ title });
    expect(JSON.stringify(row).length).toBeGreaterThan(MAX_ROW_TEXT);
    const shortEnough = show({ hidden: false, title: "\u0001".repeat(2000) });
    expect(shortEnough).toBeInstanceOf(RowText);
  });
});
