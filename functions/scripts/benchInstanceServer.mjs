// The measured process of scripts/benchInstances.mjs: one deployed function (its bundle in
// lib/bundle/, nothing else) behind an HTTP server, as an instance serves it, answering the bench's
// questions about its memory over the fork channel.
//   node scripts/benchInstanceServer.mjs BUNDLE FUNCTION   (forked by benchInstances.mjs)
import express from "express";
import { memoryNow } from "./benchServer.mjs";

const [bundle, name] = process.argv.slice(2);
const fn = (await import(`../lib/bundle/${bundle}.mjs`))[name];
const app = express();
// An event: the CloudEvent's data, protobuf as production sends it, comes as base64 and is handed
// over as the Buffer the Functions Framework hands over.
app.post("/event", express.json({ limit: "8mb" }), async (req, res) => {
  await fn({ ...req.body, data: Buffer.from(req.body.data, "base64") });
  res.status(204).end();
});
// A callable's or the blocking function's POST, its body parsed as the Functions Framework does.
app.post("/", express.json({ limit: "8mb" }), (req, res) => fn(req, res));
const server = app.listen(0, "127.0.0.1", () =>
  process.send({ base: `http://127.0.0.1:${server.address().port}` }),
);
process.on("message", (m) => process.send(memoryNow(m === "idle")));
