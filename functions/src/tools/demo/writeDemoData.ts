import { firestore } from "../../config/firebase";
import { refreshRollup } from "../../services/rollupJob";
import { writeDemoKeys } from "./keys";
import { DEMO_COMPANY, writeCompanies } from "./people";
import { DEMO_NOW, daysAgo } from "./random";
import { writeSafetyData } from "./safety";
import { VESSEL_A, writeVessels } from "./vessels";

/** Writes the whole demo dataset (deterministic: fixed ids, fixed dates, seeded randomness). */
export async function writeDemoData(): Promise<void> {
  // The write functions leave each write's promise to the writer (`void writer.set`): close()
  // waits for all of them, and a failed one rejects with the error thrown here, ending the seed.
  const writer = firestore().bulkWriter();
  writer.onWriteError((err) => {
    throw new Error(`demo seed write failed at ${err.documentRef.path}: ${err.message}`);
  });
  writeCompanies(writer);
  writeVessels(writer);
  writeSafetyData(writer);
  await writer.close();
  await writeDemoKeys(DEMO_COMPANY, VESSEL_A, daysAgo(60));
  // The rollup the daily job would have written, so GET /v1/kpis answers on the demo stack.
  await refreshRollup(DEMO_COMPANY, new Date(DEMO_NOW));
}
