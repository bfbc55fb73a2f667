import { auth, firestore } from "../../src/config/firebase";
import { settleAccount } from "../../src/services/users/accountSync";
import { randomId, seedCompany, seedKey } from "../support/builders";
import { randomAddress } from "../support/http";
import { patchOp } from "../support/scim";
import { arm, startServer, type FaultServer as Server } from "./fault/faultProcess";
import type { KillPoint } from "./fault/faultServer";

/**
 * Issue 28's done-when test: the company API served by a forked process is SIGKILLed in the
 * middle of bursts of every provisioning operation (/v1/users and SCIM), at deterministic points
 * (right after an intent, an Auth write or a roster commit) and once on a timer; a fresh process
 * then receives the retries of what got no answer (or, for some bursts, nobody retries and the
 * sweep repairs). Afterwards: sign-in accounts = users not removed, seats = seated users, every
 * address held by exactly the user the roster says, every account enabled exactly when the
 * roster seats the person, no intent left; and no answer a first try would not have given.
 */

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
}
interface Call {
  method: "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  /** Sent as `Idempotency-Key`, with the first try and every retry. */
  idempotencyKey?: string;
}
/** One request; null when the server died before answering. */
async function send(server: Server, key: string, call: Call): Promise<Answer | null> {
  const scim = call.path.startsWith("/scim/");
  try {
    const res = await fetch(`${server.url}${call.path}`, {
      method: call.method,
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": scim ? "application/scim+json" : "application/json",
        "X-Forwarded-For": randomAddress(),
        ...(call.idempotencyKey ? { "Idempotency-Key": call.idempotencyKey } : {}),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    const text = await res.text().catch(() => "");
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      headers: Object.fromEntries(res.headers),
    };
  } catch {
    return null;
  }
}

interface Company {
  companyId: string;
  key: string;
  domain: string;
  /** Every address the test used, so every account holding one is found. */
  addresses: Set<string>;
}

async function company(): Promise<Company> {
  const companyId = await seedCompany({ seatCapacity: 500, seatsUsed: 0 });
  const { key } = await seedKey({
    api: "company",
    companyId,
    scopes: ["read", "provisioning"],
    rateLimits: { perMinute: 100_000 },
  });
  return { companyId, key, domain: `${randomId("crash")}.example`, addresses: new Set() };
}

const address = (c: Company) => {
  const value = `${randomId("p")}@${c.domain}`;
  c.addresses.add(value);
  return value;
};

interface StoredPerson {
  id: string;
  /** Null: a SCIM user without an address, who has no account. */
  email: string | null;
  status: string;
  removed: boolean;
}

async function roster(companyId: string): Promise<StoredPerson[]> {
  const snap = await firestore().collection("users").where("companyId", "==", companyId).get();
  return snap.docs.map((d) => ({
    id: d.id,
    email: (d.get("email") as string | null) ?? null,
    status: d.get("status") as string,
    removed: Boolean(d.get("removedAt")),
  }));
}

/** What must hold once nothing is in progress; the list of what does not. */
async function problems(c: Company): Promise<string[]> {
  const found: string[] = [];
  const people = await roster(c.companyId);
  const live = people.filter((u) => !u.removed);
  const seated = live.filter((u) => u.status === "invited" || u.status === "active");
  const seats = (await firestore().doc(`companies/${c.companyId}`).get()).get(
    "seatsUsed",
  ) as number;
  if (seats !== seated.length) found.push(`seatsUsed ${seats}, seated users ${seated.length}`);
  const holders = new Map<string, string>();
  for (const a of c.addresses) {
    const account = await auth()
      .getUserByEmail(a)
      .catch(() => null);
    if (account) holders.set(a, account.uid);
  }
  const addressed = live.filter((u) => u.email !== null);
  if (holders.size !== addressed.length)
    found.push(`${holders.size} sign-in accounts, ${addressed.length} users with an address`);
  for (const [a, uid] of holders)
    if (live.find((u) => u.id === uid)?.email !== a)
      found.push(`${a} is held by account ${uid}, which the roster does not give it`);
  for (let i = 0; i < people.length; i += 100) {
    const chunk = people.slice(i, i + 100);
    const { users } = await auth().getUsers(chunk.map((u) => ({ uid: u.id })));
    for (const person of chunk) {
      const account = users.find((a) => a.uid === person.id);
      const allowed = seated.includes(person);
      if (person.removed || person.email === null) {
        if (account)
          found.push(`${person.removed ? "removed" : "address-less"} ${person.id} has an account`);
      } else if (!account) found.push(`${person.id} has no account`);
      else if (account.email !== person.email)
        found.push(`${person.id}: account address ${account.email}, roster ${person.email}`);
      else if (account.disabled === allowed)
        found.push(
          `${person.id}: account ${account.disabled ? "disabled" : "enabled"}, roster ${person.status}`,
        );
    }
  }
  return found;
}

const intentsOf = async (companyId: string) =>
  (await firestore().collection("accountIntents").where("companyId", "==", companyId).get()).docs;

/**
 * What the sweep does with the company's intents once they are old (the sweep itself:
 * accountIntents.test.ts): repeated while a dead instance's transaction still locks a document.
 */
async function sweepCompany(companyId: string): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const intents = await intentsOf(companyId);
    if (!intents.length) return;
    await Promise.allSettled(
      intents.map((d) => settleAccount(d.id, { writtenBefore: Number.POSITIVE_INFINITY })),
    );
  }
}

type Expect = (call: Call, answer: Answer, retry: boolean) => Promise<string | null>;

interface Scenario {
  name: string;
  kill: KillPoint | "timed";
  /** The burst, prepared on the server before it is armed (users to change are invited first). */
  calls: (c: Company, server: Server) => Promise<Call[]>;
  /** Nobody retries: the sweep must repair. */
  noRetry?: boolean;
  expect: (c: Company) => Expect;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client's retry: again with exponential backoff while there is no answer or a 5xx (a stopped
 * instance's transaction holds its locks until Firestore expires it, about a minute).
 */
async function retry(
  server: Server,
  key: string,
  call: Call,
  transient: number[],
): Promise<Answer> {
  for (let wait = 1000; ; wait = Math.min(wait * 2, 8000)) {
    const answer = await send(server, key, call);
    const inUse = (answer?.body?.error as { code?: string } | undefined)?.code;
    if (answer && answer.status < 500 && inUse !== "idempotency_key_in_use") return answer;
    transient.push(answer?.status ?? 0);
    // The stopped first try still holds its Idempotency-Key: wait as the answer says.
    if (inUse) await sleep(Number(answer?.headers["retry-after"] ?? 1) * 1000);
    if (transient.length > 200) throw new Error(`retries keep failing: ${JSON.stringify(answer)}`);
    await sleep(wait);
  }
}

let spare: Server | null = null;

afterAll(async () => {
  spare?.child.kill("SIGKILL");
  await spare?.exited;
});

/** Runs a burst on a server that dies at the kill point; a new server takes the retries. */
async function crash(scenario: Scenario): Promise<string> {
  const c = await company();
  // The server that took the last retries serves this burst (a restart costs seconds here).
  const dying = spare ?? (await startServer());
  spare = null;
  const calls = await scenario.calls(c, dying);
  const expectation = scenario.expect(c);
  if (scenario.kill !== "timed") await arm(dying, scenario.kill);
  // One request after the other, as an HR script sends them: when the server dies at a kill
  // point, no other request of it is inside a transaction (a stopped instance's transaction
  // holds its locks until Firestore expires it, about a minute: only the timed kill risks that).
  let timer: NodeJS.Timeout | undefined;
  const answers: Array<Answer | null> = [];
  for (const call of calls) {
    const answer = await send(dying, c.key, call);
    // The timed kill: 250 ms after the first answer, whatever is in flight then.
    if (answer && !timer && scenario.kill === "timed")
      timer = setTimeout(() => dying.child.kill("SIGKILL"), 250);
    // A 5xx is no answer either: the client retries it.
    answers.push(answer && answer.status < 500 ? answer : null);
  }
  dying.child.kill("SIGKILL");
  await dying.exited;
  const unanswered = answers.flatMap((a, i) => (a ? [] : [i]));
  const wrong: string[] = [];
  for (const [i, a] of answers.entries())
    if (a) wrong.push((await expectation(calls[i], a, false)) ?? "");
  const retried: number[] = [];
  const transient: number[] = [];
  if (!scenario.noRetry) {
    const server = await startServer();
    spare = server;
    const again = await Promise.all(
      unanswered.map((i) => retry(server, c.key, calls[i], transient)),
    );
    for (const [n, a] of again.entries()) {
      retried.push(a.status);
      wrong.push((await expectation(calls[unanswered[n]], a, true)) ?? "");
    }
  }
  expect(wrong.filter(Boolean)).toEqual([]);
  if (scenario.kill !== "timed") expect(unanswered.length).toBeGreaterThan(0);
  // Retried: consistent at once. Not retried: after the sweep. And then no intent is left.
  if (!scenario.noRetry) expect(await problems(c)).toEqual([]);
  await sweepCompany(c.companyId);
  expect(await problems(c)).toEqual([]);
  expect((await intentsOf(c.companyId)).map((d) => d.id)).toEqual([]);
  const kill =
    scenario.kill === "timed"
      ? "timed (250 ms after the first answer)"
      : `${scenario.kill.when} ${scenario.kill.fn} #${scenario.kill.nth}`;
  const retries = scenario.noRetry
    ? "not retried, swept"
    : `retries answered ${JSON.stringify(tally(retried))} after ${transient.length} transient failures`;
  return `${scenario.name}: ${calls.length} requests, killed ${kill}: ${unanswered.length} unanswered, ${retries}`;
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

/**
 * An invitation: 201 on a first try; a retry also 409, exactly when the crashed try had committed
 * the user.
 */
const invited =
  (c: Company): Expect =>
  async (call, answer, retry) => {
    const email = (
      call.path.startsWith("/scim/")
        ? (call.body as { userName: string }).userName
        : (call.body as { email: string }).email
    ).toLowerCase();
    const holder = (await roster(c.companyId)).find((u) => !u.removed && u.email === email);
    if (answer.status === 201)
      return holder &&
        (answer.body?.id ?? (answer.body?.data as { id?: string } | undefined)?.id) === holder.id
        ? null
        : `${email}: 201 but not on the roster`;
    if (retry && answer.status === 409 && holder && !call.idempotencyKey) return null;
    return `${email}: ${answer.status} ${JSON.stringify(answer.body)}`;
  };

const answered =
  (status: number, removedIs404 = false) =>
  (): Expect =>
  async (call, answer, retry) => {
    if (answer.status === status) return null;
    // SCIM answers a DELETE of a removed user 404, as it would have on a first try after the
    // removal.
    if (retry && removedIs404 && answer.status === 404) return null;
    return `${call.method} ${call.path}: ${answer.status} ${JSON.stringify(answer.body)}`;
  };

const v1Invites = (c: Company, n: number): Call[] =>
  Array.from({ length: n }, (_, i) => ({
    method: "POST",
    path: "/v1/users",
    body: { email: address(c), display_name: `Person ${i}` },
  }));
/** An HR script's invitations, each with its own Idempotency-Key: a retry answers 201 too. */
const keyedInvites = (c: Company, n: number): Call[] =>
  v1Invites(c, n).map((call) => ({ ...call, idempotencyKey: randomId("idem") }));
const scimInvites = (c: Company, n: number): Call[] =>
  Array.from({ length: n }, () => ({
    method: "POST",
    path: "/scim/v2/Users",
    body: { userName: address(c) },
  }));

/** Users invited (and optionally deactivated) through the server before it is armed. */
async function people(
  c: Company,
  server: Server,
  n: number,
  deactivated = false,
): Promise<string[]> {
  const ids: string[] = [];
  for (const call of v1Invites(c, n)) {
    const res = await send(server, c.key, call);
    const id = (res?.body?.data as { id?: string } | undefined)?.id;
    if (res?.status !== 201 || !id) throw new Error(`setup: ${JSON.stringify(res)}`);
    if (
      deactivated &&
      (
        await send(server, c.key, {
          method: "PATCH",
          path: `/v1/users/${id}`,
          body: { active: false },
        })
      )?.status !== 200
    )
      throw new Error("setup: deactivation");
    ids.push(id);
  }
  return ids;
}

const v1Active = (active: boolean) => async (c: Company, server: Server) =>
  (await people(c, server, 8, active)).map((id): Call => ({
    method: "PATCH",
    path: `/v1/users/${id}`,
    body: { active },
  }));
const scimPatch =
  (operation: (c: Company) => object, deactivated = false) =>
  async (c: Company, server: Server) =>
    (await people(c, server, 8, deactivated)).map((id): Call => ({
      method: "PATCH",
      path: `/scim/v2/Users/${id}`,
      body: patchOp({ op: "replace", ...operation(c) }),
    }));
/** SCIM users without an address (no account), given their first address by the burst. */
const firstAddresses = async (c: Company, server: Server) => {
  const calls: Call[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await send(server, c.key, {
      method: "POST",
      path: "/scim/v2/Users",
      body: { userName: randomId("crew") },
    });
    if (res?.status !== 201) throw new Error(`setup: ${JSON.stringify(res)}`);
    const value = address(c);
    calls.push({
      method: "PATCH",
      path: `/scim/v2/Users/${res.body?.id as string}`,
      body: patchOp({ op: "add", path: "emails", value: [{ value, primary: true }] }),
    });
  }
  return calls;
};
const removals = (path: string) => async (c: Company, server: Server) =>
  (await people(c, server, 8)).map((id): Call => ({ method: "DELETE", path: `${path}/${id}` }));

const SCENARIOS: Scenario[] = [
  {
    name: "v1 invite",
    kill: { fn: "recordIntent", nth: 5, when: "after" },
    calls: async (c) => v1Invites(c, 8),
    expect: invited,
  },
  {
    name: "v1 invite",
    kill: { fn: "createAccount", nth: 6, when: "after" },
    calls: async (c) => v1Invites(c, 8),
    expect: invited,
  },
  {
    name: "v1 invite",
    kill: { fn: "runUserTransaction", nth: 6, when: "after" },
    calls: async (c) => v1Invites(c, 8),
    expect: invited,
  },
  {
    name: "v1 deactivate",
    kill: { fn: "runUserTransaction", nth: 4, when: "after" },
    calls: v1Active(false),
    expect: answered(200),
  },
  {
    name: "v1 reactivate",
    kill: { fn: "setSignInAllowed", nth: 3, when: "before" },
    calls: v1Active(true),
    expect: answered(200),
  },
  {
    name: "v1 remove",
    kill: { fn: "runUserTransaction", nth: 4, when: "after" },
    calls: removals("/v1/users"),
    expect: answered(204),
  },
  {
    name: "SCIM POST",
    kill: { fn: "createAccount", nth: 4, when: "after" },
    calls: async (c) => scimInvites(c, 8),
    expect: invited,
  },
  {
    name: "SCIM POST",
    kill: { fn: "createAccount", nth: 4, when: "after" },
    noRetry: true,
    calls: async (c) => scimInvites(c, 8),
    expect: invited,
  },
  {
    name: "SCIM deactivate",
    kill: { fn: "runUserTransaction", nth: 4, when: "after" },
    noRetry: true,
    calls: scimPatch(() => ({ path: "active", value: false })),
    expect: answered(200),
  },
  {
    name: "SCIM address change",
    kill: { fn: "setAccountEmail", nth: 4, when: "after" },
    calls: scimPatch((c) => ({ path: "emails", value: [{ value: address(c), primary: true }] })),
    expect: answered(200),
  },
  {
    name: "SCIM address change",
    kill: { fn: "setAccountEmail", nth: 3, when: "after" },
    noRetry: true,
    calls: scimPatch((c) => ({ path: "emails", value: [{ value: address(c), primary: true }] })),
    expect: answered(200),
  },
  {
    name: "SCIM first address",
    kill: { fn: "createAccount", nth: 4, when: "after" },
    calls: firstAddresses,
    expect: answered(200),
  },
  {
    name: "SCIM first address",
    kill: { fn: "createAccount", nth: 3, when: "after" },
    noRetry: true,
    calls: firstAddresses,
    expect: answered(200),
  },
  {
    name: "SCIM DELETE",
    kill: { fn: "runUserTransaction", nth: 4, when: "after" },
    calls: removals("/scim/v2/Users"),
    expect: answered(204, true),
  },
];

describe("a server killed in the middle of provisioning converges (issue 28)", () => {
  it("every operation of both APIs, at deterministic kill points", async () => {
    // One after the other: the machine's two cores serve the emulators too.
    const lines: string[] = [];
    try {
      for (const scenario of SCENARIOS) lines.push(await crash(scenario));
    } finally {
      process.stdout.write(`provisioning crash test:\n  ${lines.join("\n  ")}\n`);
    }
  }, 480_000);

  it("with Idempotency-Key, a retried invitation answers 201 for the user it created (issue 38)", async () => {
    const lines: string[] = [];
    try {
      for (const kill of [
        { fn: "createAccount", nth: 6, when: "after" },
        { fn: "runUserTransaction", nth: 6, when: "after" },
      ] as const)
        lines.push(
          await crash({
            name: "v1 invite, keyed",
            kill,
            calls: async (c) => keyedInvites(c, 8),
            expect: invited,
          }),
        );
    } finally {
      process.stdout.write(`provisioning crash test:\n  ${lines.join("\n  ")}\n`);
    }
  }, 400_000);

  it("an invitation burst killed on a timer", async () => {
    process.stdout.write(
      `provisioning crash test:\n  ${await crash({ name: "v1 invite", kill: "timed", calls: async (c) => v1Invites(c, 8), expect: invited })}\n`,
    );
  }, 240_000);
});
