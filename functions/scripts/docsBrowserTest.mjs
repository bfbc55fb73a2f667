// Browser test of the reference pages: node scripts/docsBrowserTest.mjs (after npm run build).
// Debian's headless Chromium opens GET /v1/docs of each API as the app serves it (with its
// Content-Security-Policy), and checks that every operation of that API's OpenAPI document is
// listed, that search works, that the page fetched nothing from anywhere but this machine and
// that the policy blocked nothing. The response headers (caching, ETag/304, compression, CSP)
// are checked first, over plain HTTP. Closing line "docs-browser: N passed, N failed"; with
// DOCS_REPORT=FILE also a jest-style JSON count, as smoke.mjs writes for SMOKE_REPORT.
import { get } from "node:http";
import { createRequire } from "node:module";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ensureChromium, finish, launchChromium, tally, watchCsp } from "./checkKit.mjs";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const require = createRequire(import.meta.url);
const { FINDINGS_API } = require("../lib/findings/app.js");
const { COMPANY_API } = require("../lib/company/app.js");
const { createApp } = require("../lib/http/createApp.js");

/** Loopback only. data: and blob: URLs never leave the page. */
function isLocal(url) {
  const { protocol, hostname } = new URL(url);
  if (["data:", "blob:", "about:"].includes(protocol)) return true;
  return ["127.0.0.1", "localhost", "[::1]"].includes(hostname) || hostname.endsWith(".localhost");
}

const { check, results } = tally();

/** A raw GET (fetch would decompress): status, headers and the bytes as sent. */
const rawGet = (url, headers) =>
  new Promise((done, fail) =>
    get(url, { headers }, (res) => {
      const chunks = [];
      res
        .on("data", (c) => chunks.push(c))
        .on("end", () =>
          done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
    }).on("error", fail),
  );

/** What every answer of /v1/docs must carry, 200 or 304, whatever the coding. */
function checkCommonHeaders(name, what, headers) {
  check(
    headers["cache-control"] === "public, max-age=3600",
    `${name}: ${what}: Cache-Control is ${headers["cache-control"]}`,
  );
  check(headers.vary === "Accept-Encoding", `${name}: ${what}: Vary is ${headers.vary}`);
  check(
    headers["x-content-type-options"] === "nosniff",
    `${name}: ${what}: X-Content-Type-Options is ${headers["x-content-type-options"]}`,
  );
  check(
    /^"[A-Za-z0-9_-]{32}(?:-br|-gzip)?"$/.test(headers.etag ?? ""),
    `${name}: ${what}: ETag is ${headers.etag}`,
  );
  const csp = Object.fromEntries(
    (headers["content-security-policy"] ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v]),
  );
  const expected = {
    "default-src": ["'none'"],
    "style-src": ["'unsafe-inline'"],
    "img-src": ["data:"],
    "font-src": ["data:"],
    "connect-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
  };
  const wrong = Object.entries(expected)
    .filter(([k, v]) => JSON.stringify(csp[k]) !== JSON.stringify(v))
    .map(([k]) => k);
  if (
    !csp["script-src"]?.length ||
    !csp["script-src"].every((s) => /^'sha256-[A-Za-z0-9+/]{43}='$/.test(s))
  )
    wrong.push("script-src (hashes only)");
  check(
    wrong.length === 0,
    `${name}: ${what}: Content-Security-Policy is wrong in ${wrong.join(", ")}: ${headers["content-security-policy"]}`,
  );
}

/** Headers, codings and revalidation of /v1/docs. */
async function checkHeaders(name, base) {
  const plain = await rawGet(`${base}/v1/docs`, { "accept-encoding": "identity" });
  check(
    plain.status === 200 &&
      plain.headers["content-encoding"] === undefined &&
      plain.headers["content-type"] === "text/html; charset=utf-8",
    `${name}: identity: ${plain.status} ${plain.headers["content-encoding"]} ${plain.headers["content-type"]}`,
  );
  checkCommonHeaders(name, "identity", plain.headers);
  for (const [coding, acceptEncoding, decode] of [
    ["br", "gzip, deflate, br, zstd", brotliDecompressSync],
    ["gzip", "gzip, br;q=0.5", gunzipSync],
  ]) {
    const res = await rawGet(`${base}/v1/docs`, { "accept-encoding": acceptEncoding });
    check(
      res.headers["content-encoding"] === coding &&
        Number(res.headers["content-length"]) === res.body.length &&
        res.body.length < plain.body.length / 3,
      `${name}: Accept-Encoding ${acceptEncoding}: got ${res.headers["content-encoding"]}, ${res.body.length} bytes`,
    );
    check(
      decode(res.body).equals(plain.body),
      `${name}: the ${coding} page does not decompress to the page`,
    );
    check(res.headers.etag !== plain.headers.etag, `${name}: ${coding} and identity share an ETag`);
    checkCommonHeaders(name, coding, res.headers);
    const again = await rawGet(`${base}/v1/docs`, {
      "accept-encoding": acceptEncoding,
      "if-none-match": `"other", ${res.headers.etag}`,
    });
    check(
      again.status === 304 && again.body.length === 0,
      `${name}: If-None-Match with the ${coding} ETag answered ${again.status}`,
    );
    checkCommonHeaders(name, `304 (${coding})`, again.headers);
  }
  const stale = await rawGet(`${base}/v1/docs`, {
    "accept-encoding": "identity",
    "if-none-match": '"not-the-page"',
  });
  check(
    stale.status === 200 && stale.body.equals(plain.body),
    `${name}: a stale If-None-Match answered ${stale.status}`,
  );
  const query = await rawGet(`${base}/v1/docs?x=1`, {});
  check(
    query.status === 400 && query.headers["cache-control"] === "no-store",
    `${name}: /v1/docs?x=1 answered ${query.status}, Cache-Control ${query.headers["cache-control"]}`,
  );
}

ensureChromium("docs-browser");
const browser = await launchChromium([
  // No name resolves but loopback ones, so nothing leaves this machine even where there is a
  // network; an attempt still shows up as a request below.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1",
]);
const context = await browser.newContext();
// Chromium asks every host for a favicon; the app would answer 401 and log it.
await context.route("**/favicon.ico", (route) => route.fulfill({ status: 204 }));
try {
  for (const [name, config] of [
    ["findings", FINDINGS_API],
    ["company", COMPANY_API],
  ]) {
    const server = createApp(config).listen(0, "127.0.0.1");
    await new Promise((done) => server.once("listening", done));
    const { port } = server.address();
    await checkHeaders(name, `http://127.0.0.1:${port}`);
    const openapi = await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json();
    const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({
        what: `${m.toUpperCase()} ${path}`,
        label: item[m].summary ?? item[m].operationId,
        tag: item[m].tags?.[0],
      })),
    );

    const page = await context.newPage();
    const external = [];
    const errors = [];
    // The page runs under the CSP the app sent; anything the policy blocks is a failure.
    const violations = await watchCsp(page);
    page.on("request", (req) => isLocal(req.url()) || external.push(req.url().slice(0, 150)));
    page.on("pageerror", (err) => errors.push(err.message.slice(0, 300)));
    // Fake timers (time still flows) so delayed beacons such as telemetry batches can be fired
    // at once below instead of waited for.
    await page.clock.install();
    // A *.localhost name, not 127.0.0.1: Redoc mutes its telemetry on loopback addresses, and the
    // test must see what a reader's browser on a real host would do.
    let broken = "";
    try {
      const res = await page.goto(`http://${name}.localhost:${port}/v1/docs`, { timeout: 30_000 });
      if (res?.status() !== 200)
        throw new Error(
          `GET /v1/docs answered ${res?.status()}: ${(await res?.text())?.slice(0, 200)}`,
        );
      // The HTML is prerendered; React taking over the container means the inlined bundle ran.
      const root = await page.waitForSelector("#redoc", { state: "attached" });
      await page.waitForFunction(
        (el) => Object.keys(el).some((k) => k.startsWith("__reactContainer$")),
        root,
        { timeout: 30_000 },
      );
    } catch (err) {
      broken = err.message.split("\n")[0];
    }

    const menu = page.locator('[data-testid="menu-item-label"]');
    for (const op of operations) {
      if (broken) {
        check(false, `${name}: ${op.what} — page did not render: ${broken}`);
        continue;
      }
      // The sidebar lists an operation under its first tag, once that section is opened.
      const item = menu.getByText(op.label, { exact: true }).first();
      const listed = await (async () => {
        if (await item.isVisible()) return true;
        if (op.tag)
          await page
            .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group > a')
            .filter({ has: page.getByText(op.tag, { exact: true }) })
            .first()
            .click({ timeout: 5_000 });
        return item.waitFor({ state: "visible", timeout: 5_000 }).then(() => true);
      })().catch(() => false);
      check(listed, `${name}: ${op.what} ("${op.label}") is not listed in the page's menu`);
    }

    // Search builds its index in the page (buildDocs.mjs answers Redoc's worker probe): it must
    // work under the CSP. The index is built when search first opens, and a query typed or a
    // click made before the page is ready can go unanswered: each step is retried a few times.
    if (!broken && operations[0]) {
      const trigger = page.locator('[data-component-name="icons/SearchIcon/SearchIcon"]').first();
      const input = page.locator('input[placeholder^="Search"]').first();
      const hit = page
        .locator('[data-component-name="Search/SearchItem"]')
        .filter({ hasText: operations[0].label })
        .first();
      let found = "";
      for (let attempt = 1; attempt <= 4 && found !== true; attempt++) {
        found = await (async () => {
          if (!(await input.isVisible())) await trigger.click({ timeout: 5_000 });
          await input.fill("", { timeout: 5_000 });
          await input.fill(operations[0].label, { timeout: 5_000 });
          await hit.waitFor({ state: "visible", timeout: 5_000 });
          return true;
        })().catch((err) => err.message.split("\n")[0]);
      }
      await page.keyboard.press("Escape");
      check(
        found === true,
        `${name}: searching for "${operations[0].label}" found nothing: ${found}`,
      );
    }

    await page.clock.runFor(30_000).catch(() => undefined);
    await page.waitForTimeout(500); // let requests started by those timers be reported
    check(
      violations.length === 0,
      `${name}: the Content-Security-Policy blocked ${violations.length} thing(s):\n      ${violations.join("\n      ")}`,
    );
    check(
      external.length === 0,
      `${name}: the page requested ${external.length} URL(s) off this machine:\n      ${external.join("\n      ")}`,
    );
    if (errors.length)
      console.log(`docs-browser: ${name}: script errors in the page:\n  ${errors.join("\n  ")}`);
    await page.close();
    server.close();
  }
} finally {
  await browser.close();
}

finish("docs-browser", "DOCS_REPORT", results());
