// Run by ensure-deps.sh (start.sh, test.sh): makes the project's own firebase-tools answer `npx
// firebase …` from the repository root too (npx looks in ./node_modules/.bin only), without a
// second install. The link lives in the git-ignored root node_modules/.
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const functionsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(functionsDir, "node_modules", ".bin", "firebase");
const binDir = join(functionsDir, "..", "node_modules", ".bin");
const link = join(binDir, "firebase");

if (existsSync(target) && existsSync(join(functionsDir, "..", "firebase.json"))) {
  mkdirSync(binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(relative(binDir, target), link);
}
