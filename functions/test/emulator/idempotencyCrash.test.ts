import { firestore } from "../../src/config/firebase";
import { randomId, seedCompany, seedProvisioningKey } from "../support/builders";
import { randomAddress } from "../support/http";
import { arm, startServer } from "./fault/faultProcess";

/**
 * Issue 38: an HR script's `POST /v1/users` with an `Idempotency-Key` whose first try stops after
 * creating the user and whose retry stops too, before storing its answer: the third try answers
 * the user the first created (201), never 409 for it. Each retry waits for the stopped try's lock
 * to lapse (70 s, the production value: no setting shortens it), so this test takes 2.5 minutes.
 */
const LAPSE_MS = 72_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Idempotency-Key after two stopped tries", () => {
  jest.setTimeout(300_000);

  it("the third try answers the user the first try created", async () => {
    const companyId = await seedCompany({ seatCapacity: 100, seatsUsed: 0 });
    const key = await seedProvisioningKey(companyId);
    const idempotencyKey = randomId("idem");
    const body = JSON.stringify({ email: `${randomId("d")}@idem.example`, display_name: "Nina" });
    const post = (url: string) =>
      fetch(`${url}/v1/users`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          "Idempotency-Key": idempotencyKey,
          "X-Forwarded-For": randomAddress(),
        },
        body,
      }).then(
        async (res) => ({
          status: res.status,
          body: (await res.json()) as { data?: { id?: string } },
        }),
        () => null,
      );
    const users = async () =>
      (await firestore().collection("users").where("companyId", "==", companyId).get()).docs;

    const first = await startServer();
    await arm(first, { fn: "runUserTransaction", nth: 1, when: "after" });
    expect(await post(first.url)).toBeNull();
    const [created] = await users();
    expect(created).toBeDefined();

    await sleep(LAPSE_MS);
    const second = await startServer();
    await arm(second, { fn: "storeIdempotentAnswer", nth: 1, when: "before" });
    expect(await post(second.url)).toBeNull();

    await sleep(LAPSE_MS);
    const third = await startServer();
    const answer = await post(third.url);
    third.child.kill();
    expect(answer).toMatchObject({ status: 201, body: { data: { id: created.id } } });
    expect(await users()).toHaveLength(1);
  });
});
