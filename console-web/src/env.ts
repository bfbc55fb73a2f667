import { initializeApp, type FirebaseOptions } from "firebase/app";
import {
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
} from "firebase/auth";
import { connectFirestoreEmulator, getFirestore } from "firebase/firestore/lite";
import { connectFunctionsEmulator, getFunctions } from "firebase/functions";

declare const __EMULATORS__: { auth: number; functions: number; firestore: number };

/** The functions' region (functions/src/config/runtime.ts). */
const REGION = "europe-west1";
const LOCAL_HOSTS = ["127.0.0.1", "localhost"];
/** Served from this machine: the local stack's emulators, on the ports of firebase.json. */
export const local = LOCAL_HOSTS.includes(location.hostname);

/** On Hosting, the project's own web config (a reserved Hosting URL); locally the demo project. */
async function options(): Promise<FirebaseOptions> {
  if (local)
    return { projectId: "demo-safety-apis", apiKey: "demo-api-key", authDomain: "127.0.0.1" };
  const res = await fetch("/__/firebase/init.json");
  if (!res.ok) throw new Error("The console could not load its Firebase configuration.");
  return (await res.json()) as FirebaseOptions;
}

export async function connect() {
  const app = initializeApp(await options());
  // Not getAuth: it bundles the popup and redirect sign-in the console does not use (11 KiB)
  // and may load an iframe from the auth domain, which the CSP forbids.
  const auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence],
  });
  const functions = getFunctions(app, REGION);
  const db = getFirestore(app);
  if (local) {
    const host = location.hostname;
    connectAuthEmulator(auth, `http://${host}:${__EMULATORS__.auth}`, { disableWarnings: true });
    connectFunctionsEmulator(functions, host, __EMULATORS__.functions);
    connectFirestoreEmulator(db, host, __EMULATORS__.firestore);
  }
  return { auth, functions, db };
}
export type Services = Awaited<ReturnType<typeof connect>>;
