// Builds the console into dist/ (served by Firebase Hosting): node build.mjs.
// The emulator ports come from ../firebase.json, so the console served by the Hosting emulator
// talks to the Auth, Functions and Firestore emulators of the same stack.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const { emulators = {} } = JSON.parse(readFileSync(join(here, "..", "firebase.json"), "utf8"));
const port = (name, fallback) => Number(emulators[name]?.port ?? fallback);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  // No sourcemap: dist/ is what Hosting serves, and a map would publish the sources (and weigh
  // many times the bundle). Debug with an unminified local build instead.
  sourcemap: false,
  outfile: join(dist, "app.js"),
  define: {
    __EMULATORS__: JSON.stringify({
      auth: port("auth", 9099),
      functions: port("functions", 5001),
      firestore: port("firestore", 8080),
    }),
  },
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"])
  copyFileSync(join(here, "src", file), join(dist, file));
const kib = (file) => `${(statSync(join(dist, file)).size / 1024).toFixed(0)} KiB`;
const gzipped = (gzipSync(readFileSync(join(dist, "app.js"))).length / 1024).toFixed(0);
console.log(`console-web: built ${dist} (app.js ${kib("app.js")}, ${gzipped} KiB gzipped)`);
