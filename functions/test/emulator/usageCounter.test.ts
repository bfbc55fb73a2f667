import { consumeMany } from "../../src/repos/apiKeyUsage";
import { decideMany } from "../../src/services/rateLimit";
import { randomId } from "../support/builders";
import { firestore } from "../../src/config/firebase";
import { Firestore } from "firebase-admin/firestore";
import { readDoc } from "../../src/repos/readBatch";

describe("usage counter across instances (compare-and-swap)", () => {
  it("admits exactly the limit when many instances contend on one key", async () => {
    const keyHash = randomId("hash");
    // Each direct call stands for a different instance: no in-process coalescing between them.
    await firestore().doc(`apiKeys/${keyHash}`).set({ placeholder: true });
    const left = 60 - (Date.now() / 1000) % 60;
    if (left < 15) await new Promise((r) => setTimeout(r, left * 1000 + 200));
    const results = await Promise.all(
      Array.from({ length: 25 }, () => consumeMany(keyHash, 2, (stored, nowMs, count) => decideMany(stored, nowMs, { perMinute: 30, perDay: 1000 }, count))),
    );
    const admitted = results.flat().filter((d) => d.allowed).length;
    expect(admitted).toBe(30);
    const stored = (await firestore().doc(`apiKeyUsage/${keyHash}`).get()).data();
    expect(stored).toMatchObject({ minuteCount: 30, dayCount: 30 });
  });
});

describe("reads of one tick, one round trip (repos/readBatch)", () => {
  it("documents asked for together go out as one getAll; the same one twice is read once; a later tick reads again", async () => {
    const db = firestore();
    const [a, b] = [db.doc(`readBatch/${randomId("a")}`), db.doc(`readBatch/${randomId("b")}`)];
    await a.set({ n: 1 });
    const getAll = jest.spyOn(Firestore.prototype, "getAll");
    const [first, second, again] = await Promise.all([readDoc(a), readDoc(b), readDoc(a)]);
    expect(getAll).toHaveBeenCalledTimes(1);
    expect(getAll.mock.calls[0]).toHaveLength(2);
    expect(first.get("n")).toBe(1);
    expect(second.exists).toBe(false);
    expect(again).toBe(first);
    await b.set({ n: 2 });
    expect((await readDoc(b)).get("n")).toBe(2);
    expect(getAll).toHaveBeenCalledTimes(2);
    getAll.mockRestore();
  });

  it("a failed round trip fails every read in it", async () => {
    const failure = Object.assign(new Error("14 UNAVAILABLE"), { code: 14 });
    const getAll = jest.spyOn(Firestore.prototype, "getAll").mockRejectedValueOnce(failure);
    const reads = [readDoc(firestore().doc("readBatch/x")), readDoc(firestore().doc("readBatch/y"))];
    await expect(Promise.allSettled(reads)).resolves.toEqual([
      { status: "rejected", reason: failure },
      { status: "rejected", reason: failure },
    ]);
    getAll.mockRestore();
  });
});
