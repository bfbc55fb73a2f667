// The code as it was before the bundles (issue 37), for the "before" figures of `npm run bench`:
// that commit checked out in a temporary git worktree and compiled with tsc (its package's main
// was lib/index.js), using this checkout's node_modules. Removed again afterwards.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TSC = join(FUNCTIONS_DIR, "node_modules", "typescript", "bin", "tsc");
/** The last commit before the bundles. */
export const BEFORE = "86b0822";

/** Runs `measure(dir)` on the built functions/ directory of BEFORE, then removes it. */
export async function withCodeBefore(measure) {
  const root = join(mkdtempSync(join(tmpdir(), "bench-before-")), "tree");
  const git = (...args) => execFileSync("git", args, { cwd: FUNCTIONS_DIR, stdio: "pipe" });
  git("worktree", "add", "--detach", root, BEFORE);
  try {
    const dir = join(root, "functions");
    symlinkSync(join(FUNCTIONS_DIR, "node_modules"), join(dir, "node_modules"));
    execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, stdio: "pipe" });
    return await measure(dir);
  } finally {
    git("worktree", "remove", "--force", root);
    rmSync(dirname(root), { recursive: true, force: true });
  }
}
