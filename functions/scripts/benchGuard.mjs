// Imported first by every bench script that writes: the bench writes companies, unlimited keys,
// users and audit entries, and runs a sign-in function that takes unsigned tokens, so it runs
// only ever against the emulators of a demo project.
const { FIRESTORE_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST, GCLOUD_PROJECT } = process.env;
if (
  !FIRESTORE_EMULATOR_HOST ||
  !FIREBASE_AUTH_EMULATOR_HOST ||
  !GCLOUD_PROJECT?.startsWith("demo-")
)
  throw new Error("The bench runs against the emulators of a demo- project only: npm run bench.");
