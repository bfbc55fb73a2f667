// Keeps the integrator guides to what an integrator can run: node scripts/checkGuides.mjs (the
// test command runs it). Integrators have an address and a key, not this repository, so a guide
// must not name a repository command, flag or file, the emulators, Firestore, its collections or
// stored fields and settings (read from src/, so a new one is covered), nor the builders'
// guides. One section is exempt: the one headed exactly "On the local demo stack", for readers
// who run the repository's stack. Every run first proves the check on planted guides
// (scripts/checkGuides/*.md): each bad line must be reported and the good guide must pass.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = join(FUNCTIONS_DIR, "..");
const PLANTED = join(FUNCTIONS_DIR, "scripts", "checkGuides");
const INTEGRATOR_GUIDES = [
  "docs/findings-export-api.md",
  "docs/company-api.md",
  "docs/scim-connector.md",
  "docs/api-behaviour.md",
  "docs/errors.md",
  "docs/versioning.md",
  "examples/README.md",
];
const EXEMPT_HEADING = /^#{1,6} On the local demo stack$/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * From the code: every collection (`collection("x")`, `collectionGroup("x")`, and a spec's
 * `collection: "x"` passed on as a variable) and every stored field or setting (the keys of the
 * stored shapes, `const xShape = { … }` in repos/).
 */
function storageNames() {
  const collections = new Set();
  const fields = new Set();
  for (const file of sourceFiles(join(FUNCTIONS_DIR, "src"))) {
    const text = readFileSync(file, "utf8");
    const named = /collection(?:Group)?\(\s*"(\w+)"|collection: "(\w+)"/g;
    for (const [, call, spec] of text.matchAll(named)) collections.add(call ?? spec);
    for (const [, body] of text.matchAll(/Shape = \{\n([\s\S]*?)\n\};?/g))
      for (const [, key] of body.matchAll(/^ {2}(\w+):/gm)) fields.add(key);
  }
  // SCIM's attributes are camelCase on the wire too (`userName`, `externalId`): a stored field of
  // the same name is the attribute's, which the guides must name.
  const wire = new Set();
  for (const file of sourceFiles(join(FUNCTIONS_DIR, "src", "scim")))
    for (const [, name] of readFileSync(file, "utf8").matchAll(/"([a-z]+[A-Z]\w*)"/g))
      wire.add(name);
  return { collections: [...collections], fields: [...fields].filter((f) => !wire.has(f)) };
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const anyOf = (names) => names.map(escape).join("|");

/** The scripts of examples/package.json: an integrator who copied examples/ runs them. */
const EXAMPLE_SCRIPTS = Object.keys(
  JSON.parse(readFileSync(join(ROOT, "examples", "package.json"), "utf8")).scripts,
);

function rules({ inExamples }) {
  const { collections, fields } = storageNames();
  // In examples/README.md `npm ci` and the examples' own scripts are the integrator's to run.
  const npm = inExamples
    ? new RegExp(
        `\\bnpm (?:run (?!(?:--silent )?(?:${anyOf(EXAMPLE_SCRIPTS)})\\b)|--prefix|test|start|-w\\b|--workspace)`,
      )
    : /\bnpm (?:run|--prefix|ci|test|start|-w|--workspace)\b/;
  // A name that is also an everyday word or an API path (`findings`, `users`, `name`) is refused
  // only as the start of a storage path (`companies/{id}`); API paths start with `/`. camelCase
  // names are ours alone (the wire is snake_case).
  const camel = [...new Set([...collections, ...fields])].filter((name) => /[A-Z]/.test(name));
  const plain = collections.filter((name) => !/[A-Z]/.test(name));
  const commands = [
    npm,
    /\bnpx (?:firebase|jest|tsx)\b/,
    /\bnode (?:functions|scripts|lib)\//,
    /\bfirebase (?:deploy|emulators|functions|use|login|init|hosting)\b/,
    /\bgcloud\b/,
    /\bbash (?:\S*\/)?(?:start|test|bench|deploy)\.sh\b/,
    /\bkeys -- \w/,
  ];
  const builders = "development|benchmarks|operations|firestore-data";
  return [
    // `npm install openapi-fetch` in the integrator's own project is theirs to run; these are ours.
    ["a repository command", new RegExp(commands.map((pattern) => pattern.source).join("|"))],
    [
      "an operator flag",
      /(?:^|[\s`(])--(?:per-minute|per-day|company|prefix|scope|direct|any-domain)\b/,
    ],
    // Also inside a URL (a GitHub link to a source file).
    ["a repository path", /(?:^|[\s`(/])(?:functions|src|scripts|test|lib|console-web)\//],
    // What is published with the guides: the changelog and the quickstarts.
    ["a link into the repository", /\]\(\.\.\/(?!CHANGELOG\.md|examples\/)/],
    ["a builders' guide", new RegExp(`\\b(?:${builders})\\.md\\b|\\]\\((?:${builders})\\b`)],
    ["the emulators", /emulator/i],
    ["Firestore", /firestore/i],
    ["a stored name (collection, field or setting)", new RegExp(`\\b(?:${anyOf(camel)})\\b`)],
    ["a Firestore path", new RegExp(`(?<![\\w/.-])(?:${anyOf(plain)})/\\{?\\w`)],
  ];
}

function problemsOf(name, text, checks) {
  const problems = [];
  let exempt = false;
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (line.startsWith("```")) fenced = !fenced;
    // A shell comment in a code block is no heading.
    if (!fenced && /^#{1,6} /.test(line)) exempt = EXEMPT_HEADING.test(line.trimEnd());
    if (exempt) return;
    for (const [what, pattern] of checks)
      if (pattern.test(line)) problems.push(`${name}:${index + 1}: ${what}: ${line.trim()}`);
  });
  return problems;
}

const checks = rules({ inExamples: false });

// The planted guides: every "- " line of bad.md must be reported when the whole file is checked
// (its section's heading says "locally", which exempts nothing), and good.md must pass.
const planted = (file) => readFileSync(join(PLANTED, file), "utf8");
const reported = new Set(
  problemsOf("bad.md", planted("bad.md"), checks).map((problem) => problem.split(":")[1]),
);
const missed = planted("bad.md")
  .split("\n")
  .filter((line, index) => line.startsWith("- ") && !reported.has(String(index + 1)));
const goodProblems = problemsOf("good.md", planted("good.md"), checks);
if (missed.length || goodProblems.length) {
  console.error([...missed.map((line) => `planted bad line passed: ${line}`), ...goodProblems]);
  console.error("checkGuides.mjs no longer tells a bad guide from a good one.");
  process.exit(1);
}

const exampleChecks = rules({ inExamples: true });
const problems = INTEGRATOR_GUIDES.flatMap((name) =>
  problemsOf(
    name,
    readFileSync(join(ROOT, name), "utf8"),
    name.startsWith("examples/") ? exampleChecks : checks,
  ),
);
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(
    `${problems.length} line(s) of the integrator guides name what only the repository has ` +
      "(move them to operations.md, development.md or firestore-data.md, or into the section " +
      'headed "On the local demo stack").',
  );
  process.exit(1);
}
console.log(
  `integrator guides: ${INTEGRATOR_GUIDES.length} files, nothing repository-only ` +
    "(every planted bad line reported, the planted good guide passed).",
);
