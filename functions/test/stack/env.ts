// Stack tests run against the whole local stack started by `node scripts/emulators.mjs stack`:
// the Functions emulator serving the built code, its Firestore triggers registered.
if (!process.env.FIRESTORE_EMULATOR_HOST || !process.env.FINDINGS_API_URL) {
  throw new Error(
    "Run stack tests under `node scripts/emulators.mjs stack -- npx jest --selectProjects stack` (after npm run build).",
  );
}
process.env.GCLOUD_PROJECT ??= "demo-safety-apis";
