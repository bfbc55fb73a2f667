// Emulator tests run only against the Firestore emulator started by the harness
// (`npm run test:emulator`), never against a real project.
if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error(
    "FIRESTORE_EMULATOR_HOST is not set: run emulator tests with `npm run test:emulator`.",
  );
}
process.env.GCLOUD_PROJECT ??= "demo-safety-apis";
// Never on Google Cloud: the auth library looking for credentials (signing without a key) must not
// ask the metadata server, which answers 403 here and printed a MetadataLookupWarning per file.
process.env.METADATA_SERVER_DETECTION ??= "none";
