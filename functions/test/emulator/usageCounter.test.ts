import { firestore } from "../../src/config/firebase";
import { consumeMany } from "../../src/repos/apiKeyUsage";
import { decideMany } from "../../src/services/rateLimit";
import { randomId } from "../support/builders";

describe("usage counter across instances (compare-and-swap)", () => {
  it("admits exactly the limit when many instances contend on one key", async () => {
    const keyHash = randomId("hash");
    // Each direct call stands for a different instance: no in-process coalescing between them.
    await firestore().doc(`apiKeys/${keyHash}`).set({ placeholder: true });
    const left = 60 - ((Date.now() / 1000) % 60);
    if (left < 15) await new Promise((r) => setTimeout(r, left * 1000 + 200));
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        consumeMany(keyHash, 2, (stored, nowMs, count) =>
          decideMany(stored, nowMs, { perMinute: 30, perDay: 1000 }, count),
        ),
      ),
    );
    const admitted = results.flat().filter((d) => d.allowed).length;
    expect(admitted).toBe(30);
    const stored = (await firestore().doc(`apiKeyUsage/${keyHash}`).get()).data();
    expect(stored).toMatchObject({ minuteCount: 30, dayCount: 30 });
  });
});
