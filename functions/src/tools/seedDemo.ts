import { writeDemoData } from "./demo/writeDemoData";

/** Writes the demo dataset into the Firestore emulator named by FIRESTORE_EMULATOR_HOST. */
async function main(): Promise<void> {
  if (!process.env.FIRESTORE_EMULATOR_HOST) {
    throw new Error(
      "FIRESTORE_EMULATOR_HOST is not set: the demo seed only ever writes to an emulator.",
    );
  }
  const started = Date.now();
  await writeDemoData();
  console.log(`Demo data written in ${Date.now() - started} ms.`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
