import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** `npm run deploy` (scripts/deploy.mjs): the only documented deploy, and what it refuses. */
const script = join(__dirname, "../../scripts/deploy.mjs");

function deploy(args: string[], envFiles: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "deploy-env-"));
  for (const [name, text] of Object.entries(envFiles)) writeFileSync(join(dir, name), text);
  const run = spawnSync(process.execPath, [script, ...args, "--dry-run"], {
    env: { ...process.env, DEPLOY_ENV_DIR: dir },
  });
  return { status: run.status, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

const protectedEnv = {
  ".env.acme-prod": "API_INGRESS=ALLOW_INTERNAL_AND_GCLB\nFORWARDED_HOPS=2\n",
};

describe("the deploy command", () => {
  it("deploys the functions only, never indexes or rules that would replace the app's", () => {
    const run = deploy(["--project", "acme-prod"], protectedEnv);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe("npx firebase deploy --only functions --project acme-prod");
  });

  it("refuses a demo- project and a missing project", () => {
    const demo = deploy(["--project", "demo-safety-apis"], {
      ".env.demo-safety-apis": protectedEnv[".env.acme-prod"],
    });
    expect(demo.status).toBe(2);
    expect(demo.stderr).toContain("demo- project");
    expect(deploy([]).status).toBe(2);
  });

  it("refuses a deployment reachable directly unless --direct says so knowingly", () => {
    const open = deploy(["--project", "acme-prod"], { ".env": "FORWARDED_HOPS=1\n" });
    expect(open.status).toBe(2);
    expect(open.stderr).toContain("API_INGRESS=ALLOW_INTERNAL_AND_GCLB");
    expect(open.stdout).toBe("");
    const direct = deploy(["--project", "acme-prod", "--direct"], { ".env": "FORWARDED_HOPS=1\n" });
    expect(direct.status).toBe(0);
    expect(direct.stdout).toContain("--only functions");
  });

  it("refuses the load balancer's ingress with the hop count of a direct deployment", () => {
    const run = deploy(["--project", "acme-prod"], {
      ".env": "FORWARDED_HOPS=1\n",
      ".env.acme-prod": "API_INGRESS=ALLOW_INTERNAL_AND_GCLB\n",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("FORWARDED_HOPS must be 2");
  });

  it.each(["FIREBASE_DEBUG_MODE=true", 'FIREBASE_DEBUG_FEATURES={"skipTokenVerification":true}'])(
    "refuses an .env with the Functions SDK's debug switch %s (it can turn token checks off)",
    (line) => {
      for (const file of [".env", ".env.acme-prod"]) {
        const run = deploy(["--project", "acme-prod"], {
          ...protectedEnv,
          [file]: `${protectedEnv[".env.acme-prod"]}${line}\n`,
        });
        expect(run.status).toBe(2);
        expect(run.stderr).toContain("never deployed");
        expect(run.stdout).toBe("");
      }
    },
  );
});
