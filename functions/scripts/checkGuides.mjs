// Keeps the integrator guides to what an integrator can run: node scripts/checkGuides.mjs (the
// test command runs it). Integrators have an address and a key, not this repository, so a guide
// must not name a repository command or file, the emulators, or Firestore and its collections
// (the collection names are read from src/, so a new collection is covered). A section whose
// heading says "local" (the local stack, for readers who have the repository) is exempt.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DOCS = join(FUNCTIONS_DIR, "..", "docs");
const INTEGRATOR_GUIDES = [
  "findings-export-api.md",
  "company-api.md",
  "scim-connector.md",
  "api-behaviour.md",
  "errors.md",
  "versioning.md",
];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every collection the code reads or writes: `collection("x")` and `collectionGroup("x")`. */
function collections() {
  const names = new Set();
  for (const file of sourceFiles(join(FUNCTIONS_DIR, "src")))
    for (const [, name] of readFileSync(file, "utf8").matchAll(/collection(?:Group)?\("(\w+)"/g))
      names.add(name);
  return [...names];
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function rules() {
  const names = collections();
  // A name that is also an everyday word or an API path (`findings`, `users`) is refused only as
  // the start of a storage path (`companies/{id}`); API paths start with `/`.
  const camel = names.filter((name) => /[A-Z]/.test(name));
  const plain = names.filter((name) => !/[A-Z]/.test(name));
  return [
    // `npm install openapi-fetch` in the integrator's own project is theirs to run; these are ours.
    [
      "a repository command",
      /\bnpm (?:run|--prefix|ci|test)\b|\bnpx (?:firebase|jest)\b|\bnode (?:functions|scripts|lib)\//,
    ],
    ["a repository path", /(?:^|[\s`(])(?:functions|src|scripts|test|lib)\//],
    // What is published with the guides: the changelog and the quickstarts.
    ["a link into the repository", /\]\(\.\.\/(?!CHANGELOG\.md|examples\/)/],
    ["the emulators", /emulator/i],
    ["Firestore", /firestore/i],
    ["a Firestore collection", new RegExp(`\\b(?:${camel.map(escape).join("|")})\\b`)],
    ["a Firestore path", new RegExp(`(?<![\\w/.-])(?:${plain.map(escape).join("|")})/\\{?\\w`)],
  ];
}

function problemsOf(name, checks) {
  const problems = [];
  let exempt = false;
  let fenced = false;
  readFileSync(join(DOCS, name), "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.startsWith("```")) fenced = !fenced;
      // A shell comment in a code block is no heading.
      if (!fenced && /^#{1,6} /.test(line)) exempt = /\blocal(?:ly)?\b/i.test(line);
      if (exempt) return;
      for (const [what, pattern] of checks)
        if (pattern.test(line)) problems.push(`docs/${name}:${index + 1}: ${what}: ${line.trim()}`);
    });
  return problems;
}

const checks = rules();
const problems = INTEGRATOR_GUIDES.flatMap((name) => problemsOf(name, checks));
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(
    `${problems.length} line(s) of the integrator guides name what only the repository has ` +
      "(move them to operations.md, development.md or firestore-data.md, or into a section " +
      'whose heading says "local").',
  );
  process.exit(1);
}
console.log(`integrator guides: ${INTEGRATOR_GUIDES.length} files, nothing repository-only.`);
