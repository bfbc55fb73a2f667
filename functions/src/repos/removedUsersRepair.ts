import { firestore } from "../config/firebase";
import { ASIDE, movedAside } from "./movedAside";
import { usersCollection } from "./users";

/**
 * The operator's repair of an older stored form: users removed before removal moved `createdAt`,
 * `email`, `userNameKey` and `externalId` aside still sit in the ordered roster (SCIM paging
 * counts them) and in the lookups. Moves them aside a hundred at a time, one pass per field
 * (ordering by a field reads only documents that have it); idempotent. Returns how many were
 * moved.
 */
export async function moveRemovedAside(companyId: string): Promise<number> {
  let moved = 0;
  for (const field of Object.keys(ASIDE))
    for (;;) {
      const stale = await usersCollection()
        .where("companyId", "==", companyId)
        .where("removedAt", "!=", null)
        .orderBy("removedAt")
        .orderBy(field)
        .limit(100)
        .get();
      if (stale.empty) break;
      const batch = firestore().batch();
      for (const doc of stale.docs) batch.update(doc.ref, movedAside(doc.data()));
      await batch.commit();
      moved += stale.size;
    }
  return moved;
}
