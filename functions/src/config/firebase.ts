import { getApps, initializeApp } from "firebase-admin/app";
import { getAuth, type Auth } from "firebase-admin/auth";
import { getFirestore, type Firestore } from "firebase-admin/firestore";

/**
 * Lazy Admin SDK: nothing touches the network or reads credentials at module load, so
 * deploy-time analysis, unit tests and cold starts of other functions stay cheap.
 */
let db: Firestore | undefined;

function app() {
  return getApps()[0] ?? initializeApp();
}

export function firestore(): Firestore {
  if (!db) {
    db = getFirestore(app());
    db.settings({ ignoreUndefinedProperties: true });
  }
  return db;
}

export function auth(): Auth {
  return getAuth(app());
}
