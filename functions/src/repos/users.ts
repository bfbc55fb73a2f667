import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { flag, nullableString, parseStored } from "./stored";

/** `users/{uid}`: the fields key management decides on (never e-mail or avatar). */
export const userDoc = z.object({
  companyId: nullableString,
  displayName: nullableString,
  role: nullableString,
  keyUser: flag,
  status: nullableString,
});
export type UserDoc = z.output<typeof userDoc>;

export async function findUser(uid: string): Promise<UserDoc | null> {
  const snap = await firestore().collection("users").doc(uid).get();
  return snap.exists ? parseStored(userDoc, snap.ref.path, snap.data()) : null;
}
