import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * One direction of dependency (docs/development.md, "Repository layout"):
 *   lib, config, logs  <-  repos  <-  services  <-  http kernel  <-  adapters  <-  index.ts, tools
 * with the adapters (findings, company, scim, console) independent of each other, except that the
 * company API's app mounts the SCIM routes. A wrong import fails `npm run lint`.
 */
const TYPED = ["src/**/*.ts", "test/**/*.ts"];
const FOLDERS = [
  "lib",
  "config",
  "logs",
  "repos",
  "services",
  "http",
  "findings",
  "company",
  "scim",
  "console",
  "tools",
];
const ABOVE = {
  lib: FOLDERS.filter((f) => f !== "lib"),
  config: FOLDERS.filter((f) => !["lib", "config"].includes(f)),
  logs: FOLDERS.filter((f) => !["lib", "config", "logs"].includes(f)),
  repos: ["services", "http", "findings", "company", "scim", "console", "tools"],
  services: ["http", "findings", "company", "scim", "console", "tools"],
  http: ["findings", "company", "scim", "console", "tools"],
  findings: ["company", "scim", "console", "tools"],
  company: ["findings", "console", "tools", "scim"],
  scim: ["findings", "company", "console", "tools"],
  console: ["findings", "company", "scim", "tools"],
};
const WHY = {
  lib: "lib/ is pure helpers: it imports no other layer.",
  config: "config/ sits at the bottom: it imports only lib/.",
  logs: "logs.ts sits at the bottom: it imports only lib/ and config/.",
  repos:
    "repos/ import only lib, config, logs and other repos; a repo throws its own errors and the service maps them.",
  services:
    "services/ know nothing of HTTP or of the adapters: throw a domain error, and let the adapter map it.",
  http: "the http/ kernel is shared by both APIs: it never imports an adapter.",
  findings:
    "adapters are independent of each other: move what two of them share into services/ or http/.",
  company: "adapters are independent of each other (only company/app.ts mounts the SCIM routes).",
  scim: "adapters are independent of each other: move what two of them share into services/ or http/.",
  console:
    "adapters are independent of each other: move what two of them share into services/ or http/.",
};
// The only files of src/ over 250 lines: a grammar and a data table that read best whole.
const LONG_FILES = ["src/services/esrs/datapoints.ts"];
// Nothing under src/ is test-only: test helpers live in test/support/ and use these packages.
const TEST_ONLY = ["supertest", "fast-check", "ajv", "ajv-formats", "firebase-functions-test"];
const testOnly = {
  paths: TEST_ONLY.map((name) => ({
    name,
    message: "a test-only package: use it from test/, never from src/.",
  })),
  patterns: [{ regex: "^(\\.\\./)+test/", message: "src/ never imports from test/." }],
};
const folderRule = (folder, forbidden) => ({
  "no-restricted-imports": [
    "error",
    // From a folder, other folders are `../x` (or `../../x` one level down); logs.ts sees them
    // as `./x`.
    {
      paths: testOnly.paths,
      patterns: [
        ...testOnly.patterns,
        {
          regex: `^${folder === "logs" ? "\\./" : "(\\.\\./)+"}(${forbidden.join("|")})(/|$)`,
          message: WHY[folder],
        },
      ],
    },
  ],
});
const layering = Object.entries(ABOVE).map(([folder, forbidden]) => ({
  files: folder === "logs" ? ["src/logs.ts"] : [`src/${folder}/**/*.ts`],
  rules: folderRule(folder, forbidden),
}));

export default tseslint.config(
  { ignores: ["lib/**", "node_modules/**", "coverage/**", "generated/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-checked rules over src/ and test/ (tsconfig.test.json's program holds both).
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: TYPED })),
  {
    files: TYPED,
    languageOptions: {
      parserOptions: { project: "./tsconfig.test.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A route handler returns a promise by contract, whether or not it awaits anything.
      "@typescript-eslint/require-await": "off",
      // Re-rejecting a caught `unknown` (after mapping the errors we know) is the intent.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    // supertest's `res.body` and the SDKs' `DocumentData` are `any` by design: a test reads them
    // and asserts on them, so the no-unsafe-* family would only ask for casts that prove nothing.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": "error",
      // Prettier owns the layout (it breaks member chains before `[`); semicolons rule out the ASI
      // hazard this rule guards.
      "no-unexpected-multiline": "off",
    },
  },
  {
    files: ["scripts/**/*.mjs", "*.js", "*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // A preload for `node --require` (scripts/benchWorkerPreload.cjs) is CommonJS by necessity.
    files: ["scripts/**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["src/tools/**/*.ts", "test/**/*.ts"],
    rules: { "no-console": "off" },
  },
  {
    files: ["src/index.ts", "src/tools/**/*.ts"],
    rules: { "no-restricted-imports": ["error", testOnly] },
  },
  ...layering,
  {
    // Prettier keeps code within 100 columns but neither rewraps comments nor splits strings.
    files: ["src/**/*.ts"],
    rules: { "max-len": ["error", { code: 100, ignoreUrls: false }] },
  },
  {
    // Tests and scripts too, but a test's title, a fixture or a pattern may stay one long literal.
    files: ["test/**/*.ts", "scripts/**/*.mjs", "*.mjs"],
    rules: {
      "max-len": [
        "error",
        {
          code: 100,
          ignoreUrls: false,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    // Files stay small (docs/development.md, "npm run lint also keeps the structure"); the files
    // named in LONG_FILES are longer on purpose, each for the reason given there.
    files: ["src/**/*.ts"],
    ignores: LONG_FILES,
    rules: { "max-lines": ["error", { max: 250 }] },
  },
  {
    files: ["src/company/app.ts"],
    rules: folderRule(
      "company",
      ABOVE.company.filter((f) => f !== "scim"),
    ),
  },
);
