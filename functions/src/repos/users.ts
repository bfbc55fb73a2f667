import { firestore } from "../config/firebase";
import { parseStored, type Stored } from "./stored";
import { flag, nullableString } from "./storedFields";

/** `users/{uid}`: the fields key management decides on (never e-mail or avatar). */
export const userShape = {
  companyId: nullableString,
  displayName: nullableString,
  role: nullableString,
  keyUser: flag,
  status: nullableString,
};
export type UserDoc = Stored<typeof userShape>;

export async function findUser(uid: string): Promise<UserDoc | null> {
  const snap = await firestore().collection("users").doc(uid).get();
  return snap.exists ? parseStored(userShape, snap.ref.path, snap.data()) : null;
}
