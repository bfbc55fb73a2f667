import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * One direction of dependency (README, "Repository layout"):
 *   lib, config, logs  <-  repos  <-  services  <-  http kernel  <-  adapters  <-  index.ts, tools
 * with the adapters (findings, company, scim, console) independent of each other, except that the
 * company API's app mounts the SCIM routes. A wrong import fails `npm run lint`.
 */
const FOLDERS = ["lib", "config", "logs", "repos", "services", "http", "findings", "company", "scim", "console", "tools", "testing"];
const ABOVE = {
  lib: FOLDERS.filter((f) => f !== "lib"),
  config: FOLDERS.filter((f) => !["lib", "config"].includes(f)),
  logs: FOLDERS.filter((f) => !["lib", "config", "logs"].includes(f)),
  repos: ["services", "http", "findings", "company", "scim", "console", "tools", "testing"],
  services: ["http", "findings", "company", "scim", "console", "tools", "testing"],
  http: ["findings", "company", "scim", "console", "tools", "testing"],
  findings: ["company", "scim", "console", "tools", "testing"],
  company: ["findings", "console", "tools", "testing", "scim"],
  scim: ["findings", "company", "console", "tools", "testing"],
  console: ["findings", "company", "scim", "tools", "testing"],
};
const WHY = {
  lib: "lib/ is pure helpers: it imports no other layer.",
  config: "config/ sits at the bottom: it imports only lib/.",
  logs: "logs.ts sits at the bottom: it imports only lib/ and config/.",
  repos: "repos/ import only lib, config, logs and other repos; a repo throws its own errors and the service maps them.",
  services: "services/ know nothing of HTTP or of the adapters: throw a domain error, and let the adapter map it.",
  http: "the http/ kernel is shared by both APIs: it never imports an adapter.",
  findings: "adapters are independent of each other: move what two of them share into services/ or http/.",
  company: "adapters are independent of each other (only company/app.ts mounts the SCIM routes).",
  scim: "adapters are independent of each other: move what two of them share into services/ or http/.",
  console: "adapters are independent of each other: move what two of them share into services/ or http/.",
};
const folderRule = (folder, forbidden) => ({
  "no-restricted-imports": [
    "error",
    // From a folder, other folders are `../x` (or `../../x` one level down); logs.ts sees them as `./x`.
    { patterns: [{ regex: `^${folder === "logs" ? "\\./" : "(\\.\\./)+"}(${forbidden.join("|")})(/|$)`, message: WHY[folder] }] },
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
  {
    files: ["**/*.ts", "**/*.mts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["scripts/**/*.mjs", "*.js", "*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["src/tools/**/*.ts", "src/testing/**/*.ts", "test/**/*.ts"],
    rules: { "no-console": "off" },
  },
  ...layering,
  { files: ["src/company/app.ts"], rules: folderRule("company", ABOVE.company.filter((f) => f !== "scim")) },
);
