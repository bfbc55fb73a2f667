import { Timestamp } from "firebase-admin/firestore";
import { HttpsError } from "firebase-functions/v2/https";
import { isDocumentId } from "../lib/documentId";
import { type Cursor } from "../repos/rangeQuery";
import { auditTrailPage } from "../services/auditTrail";
import { auditView } from "./auditView";
import { callableHandler } from "./callable";
import { listAuditTrailInput } from "./consoleInputs";

/**
 * A page token is the last entry's position in clear: whoever may call this may read the trail
 * itself (firestore.rules), so a token reveals nothing and a forged one only moves the page.
 */
function encode(cursor: Cursor): string {
  const at = cursor.value instanceof Timestamp ? cursor.value : Timestamp.fromMillis(0);
  return Buffer.from(JSON.stringify([at.seconds, at.nanoseconds, cursor.id])).toString("base64url");
}

function decode(token: string): Cursor {
  try {
    const [seconds, nanos, id] = JSON.parse(
      Buffer.from(token, "base64url").toString(),
    ) as unknown[];
    const position = Number.isSafeInteger(seconds) && Number.isSafeInteger(nanos);
    // A forged id that is no document id would make the query itself fail (a 500).
    if (position && typeof id === "string" && isDocumentId(id))
      return { value: new Timestamp(seconds as number, nanos as number), id };
  } catch {
    // reported below
  }
  throw new HttpsError("invalid-argument", "pageToken is not a token this function gave.");
}

/** The company's audit trail for the console: newest first, by class, paged, in words. */
export const listAuditTrailHandler = callableHandler(
  "listAuditTrail",
  listAuditTrailInput,
  async (input, caller) => {
    const page = await auditTrailPage(
      input.companyId,
      {
        class: input.class,
        after: input.pageToken ? decode(input.pageToken) : undefined,
        limit: input.limit,
      },
      caller,
    );
    return {
      entries: page.entries.map(auditView),
      nextPageToken: page.next ? encode(page.next) : null,
    };
  },
);
