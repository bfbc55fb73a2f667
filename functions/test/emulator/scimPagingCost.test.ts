import { Timestamp } from "firebase-admin/firestore";
import { rosterWindow } from "../../src/repos/users";
import { seedUser } from "../support/builders";
import { countReads } from "../support/readCounter";
import { scim, scimCompany } from "../support/scim";

/**
 * SCIM offset paging (startIndex) as identity providers crawl the roster: each page must cost its
 * own users, not every user before it (Firestore bills an offset's skipped documents).
 */
describe("SCIM roster paging cost", () => {
  let companyId: string;
  let key: string;
  const uids: string[] = [];

  beforeAll(async () => {
    ({ companyId, key } = await scimCompany({ seatCapacity: 100, seatsUsed: 0 }));
    for (let i = 0; i < 60; i++) uids.push(`${companyId}-u${String(i).padStart(2, "0")}`);
    await Promise.all(
      uids.map((uid, i) =>
        seedUser(uid, { companyId, createdAt: Timestamp.fromMillis(1_700_000_000_000 + i) }),
      ),
    );
  });

  it("a sequential crawl reads each page's users once: page n costs the same as page 1", async () => {
    const costs: number[] = [];
    const seen: string[] = [];
    for (let offset = 0; offset < 60; offset += 10) {
      const { result: window, reads } = await countReads(() => rosterWindow(companyId, offset, 10));
      expect(window.total).toBe(60);
      seen.push(...window.users.map((u) => u.id));
      costs.push(reads);
    }
    expect(seen).toEqual(uids);
    // A count (1) and the page's 10 users, whatever its startIndex; an offset would bill 60 for the
    // last.
    expect(costs).toEqual([11, 11, 11, 11, 11, 11]);
  });

  it("through GET /scim/v2/Users: the crawl lists the same users in the same order as one page", async () => {
    const whole = await scim("get", "/Users?startIndex=1&count=60", key);
    expect(whole.status).toBe(200);
    const crawled: string[] = [];
    for (let startIndex = 1; startIndex <= 60; startIndex += 7) {
      const res = await scim("get", `/Users?startIndex=${startIndex}&count=7`, key);
      expect(res.body).toMatchObject({ totalResults: 60, startIndex });
      crawled.push(...(res.body.Resources as Array<{ id: string }>).map((r) => r.id));
    }
    expect(crawled).toEqual((whole.body.Resources as Array<{ id: string }>).map((r) => r.id));
    expect(crawled).toEqual(uids);
  });

  it("a jump to a startIndex no page ended at still answers it exactly (offset fallback)", async () => {
    const { result: window, reads } = await countReads(() => rosterWindow(companyId, 33, 5));
    expect(window.users.map((u) => u.id)).toEqual(uids.slice(33, 38));
    // The count (1), then the 33 documents the offset skips and the window's 5.
    expect(reads).toBe(1 + 38);
  });
});
