// The layering rules of eslint.config.mjs (docs/development.md, "Repository layout") fire on an import that
// points up or across, and stay quiet on one that points down: a rule that silently stopped
// matching would let the next wrong import through `npm run lint`. Run by test.sh after lint
// (ESLint's flat config is ESM, which jest cannot load).
import { ESLint } from "eslint";
import path from "node:path";
import { fileURLToPath } from "node:url";
import tseslint from "typescript-eslint";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The sample files below do not exist, so no TypeScript program holds them: import rules only.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

const refused = [
  ["src/repos/example.ts", "../services/users"],
  ["src/repos/example.ts", "../http/zod"],
  ["src/services/example.ts", "../http/errors"],
  ["src/services/esrs/example.ts", "../../company/schemas"],
  ["src/http/example.ts", "../findings/schemas"],
  ["src/scim/example.ts", "../company/users/wire"],
  ["src/company/users/example.ts", "../../scim/scimErrors"],
  ["src/console/example.ts", "../company/schemas"],
  ["src/lib/example.ts", "../repos/stored"],
  ["src/config/example.ts", "../repos/stored"],
  ["src/logs.ts", "./services/users"],
  ["src/repos/example.ts", "supertest"],
  ["src/tools/example.ts", "fast-check"],
  ["src/index.ts", "ajv"],
  ["src/http/example.ts", "../../test/support/http"],
];
const allowed = [
  ["src/repos/example.ts", "../lib/dates"],
  ["src/repos/example.ts", "./findings"],
  ["src/services/example.ts", "../repos/users"],
  ["src/http/example.ts", "../services/keyAccess"],
  ["src/scim/example.ts", "../http/errors"],
  ["src/company/users/example.ts", "../../services/users"],
  ["src/company/app.ts", "../scim/userRoutes"],
  ["src/tools/demo/example.ts", "../../repos/apiKeys"],
];

async function isRestricted(file, from) {
  const [result] = await eslint.lintText(`import { x } from "${from}";\nexport const y = x;\n`, {
    filePath: path.join(root, file),
  });
  return result.messages.some((m) => m.ruleId === "no-restricted-imports");
}

let failed = 0;
for (const [cases, expected] of [
  [refused, true],
  [allowed, false],
]) {
  for (const [file, from] of cases) {
    const ok = (await isRestricted(file, from)) === expected;
    if (!ok) failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${file} ${expected ? "may not" : "may"} import ${from}`);
  }
}
console.log(`layering: ${refused.length + allowed.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
