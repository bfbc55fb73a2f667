import { Coalescer } from "../../lib/coalesce";
import type { AuditOrigin } from "../../repos/auditLogs";
import {
  runUserTransaction,
  type NewUserRecord,
  type UserTransaction,
} from "../../repos/userTransaction";
import type { StoredUser } from "../../repos/users";
import { seatsIn } from "./commit";
import { assertAddressFree, assertSeatFree, assertUserNameFree, isSeated } from "./decisions";
import { addressTaken, deactivatedLimit, UsersError } from "./userRefusals";

/**
 * The invitation's account intent was abandoned (or is gone): its account is not this request's to
 * use.
 */
export class InviteIntentLost extends Error {
  constructor() {
    super("the invitation's account intent was abandoned");
    this.name = "InviteIntentLost";
  }
}

interface Invite {
  uid: string;
  record: NewUserRecord;
  origin: AuditOrigin;
}
type Outcome = { user: StoredUser } | { refused: UsersError | InviteIntentLost };

/** What one invitation's decisions read (all of a transaction's reads come before its writes). */
async function readsOf(tx: UserTransaction, companyId: string, { uid, record }: Invite) {
  const [intent, existing, withEmail, withKey, withKeyAsAddress] = await Promise.all([
    tx.intent(uid),
    tx.user(uid),
    record.email === null ? Promise.resolve([]) : tx.withEmail(record.email),
    tx.withUserNameKey(companyId, record.userNameKey),
    tx.withEmail(record.userNameKey),
  ]);
  return { intent, existing, withEmail, withKey, withKeyAsAddress };
}

/**
 * The invitations of one company waiting together, in one transaction: each decided in turn as
 * if alone (the users made before it in the batch count as stored), refused ones leaving nothing,
 * and the seat counter written once for the batch.
 */
async function commitBatch(
  tx: UserTransaction,
  companyId: string,
  batch: readonly Invite[],
): Promise<Outcome[]> {
  const reads = await Promise.all(batch.map((invite) => readsOf(tx, companyId, invite)));
  const seats = await seatsIn(tx, companyId);
  let held = batch.some((i) => !isSeated(i.record.status))
    ? await tx.countDeactivatedOnRoster(companyId)
    : 0;
  let used = seats.used;
  const made: StoredUser[] = [];
  const outcomes = batch.map(({ uid, record, origin }, n): Outcome => {
    const read = reads[n];
    const madeWith = (value: string | null) => made.filter((u) => u.email === value);
    try {
      if (read.existing) throw addressTaken();
      if (!read.intent || read.intent.abandoned) throw new InviteIntentLost();
      if (record.email !== null)
        assertAddressFree([...read.withEmail, ...madeWith(record.email)], uid);
      const sameKey = made.filter((u) => u.userNameKey === record.userNameKey);
      assertUserNameFree(
        companyId,
        uid,
        [...read.withKey, ...sameKey],
        [...read.withKeyAsAddress, ...madeWith(record.userNameKey)],
      );
      const seated = isSeated(record.status);
      if (seated) assertSeatFree({ capacity: seats.capacity, used });
      // A deactivated user holds an address without a seat: at most as many as the company has
      // seats.
      else if (held >= seats.capacity) throw deactivatedLimit(held);
      const user = tx.create(companyId, uid, record);
      made.push(user);
      if (seated) used++;
      else held++;
      tx.audit(companyId, uid, "user.invited", origin);
      return { user };
    } catch (err) {
      if (err instanceof UsersError || err instanceof InviteIntentLost) return { refused: err };
      throw err;
    }
  });
  if (used !== seats.used) tx.setSeatsUsed(companyId, used);
  return outcomes;
}

/**
 * Group commit per company (docs/benchmarks.md, "Invitation burst"): invitations that arrive
 * while one of the company's commits runs wait and commit together in the next, so a provider's
 * burst is a few transactions on the company's seat counter, not hundreds contending for it.
 * At most 50 a batch (each writes a user and an audit entry: far below a commit's 500 writes).
 */
const invites = new Coalescer<Invite, Outcome>(
  (companyId, batch) => runUserTransaction((tx) => commitBatch(tx, companyId, batch)),
  50,
);

/**
 * Writes a new user and takes a seat if it is seated (invited), or refuses (address, userName,
 * seats) with nothing written. The account `uid` must still be the invitation's (its intent read
 * here, not abandoned); a user already committed with it holds the address (a concurrent request).
 */
export async function commitInvite(
  companyId: string,
  uid: string,
  record: NewUserRecord,
  origin: AuditOrigin,
): Promise<StoredUser> {
  const outcome = await invites.submit(companyId, { uid, record, origin });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.user;
}
