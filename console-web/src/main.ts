import { onAuthStateChanged, signOut, type User } from "firebase/auth";
import { collection, doc, getDoc, getDocs } from "firebase/firestore/lite";
import { API_NAMES, callables, inWords, type Api } from "./api";
import { auditPage } from "./auditPage";
import { fill, h } from "./dom";
import { connect } from "./env";
import { keysPage } from "./keysPage";
import type { Session } from "./session";
import { signInPage } from "./signIn";

/**
 * The console's shell: who is signed in, which company they look at, and the three pages
 * (one per API: access and keys; the audit trail), one per URL hash.
 */
const services = await connect();
const api = callables(services);
const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;

const PAGES: Array<{ hash: string; title: string }> = [
  { hash: "#/findings", title: API_NAMES.findings },
  { hash: "#/company", title: API_NAMES.company },
  { hash: "#/audit", title: "Audit trail" },
];

async function sessionOf(user: User): Promise<Session> {
  const token = await user.getIdTokenResult();
  const admin = token.claims.admin === true;
  const profile = await getDoc(doc(services.db, "users", user.uid)).catch(() => null);
  const data = profile?.exists() ? profile.data() : {};
  const companies: Session["companies"] = [];
  if (admin) {
    const snap = await getDocs(collection(services.db, "companies"));
    snap.forEach((c) => companies.push({ id: c.id, name: String(c.get("name") ?? c.id) }));
  } else if (typeof data.companyId === "string") {
    const company = await getDoc(doc(services.db, "companies", data.companyId)).catch(() => null);
    companies.push({ id: data.companyId, name: String(company?.get("name") ?? data.companyId) });
  }
  return {
    services,
    api,
    uid: user.uid,
    email: user.email ?? user.uid,
    admin,
    name: String(data.displayName ?? user.email ?? user.uid),
    role: typeof data.role === "string" ? data.role : null,
    keyUser: data.keyUser === true,
    companies,
    companyId: (admin && sessionStorage.getItem("companyId")) || (companies[0]?.id ?? null),
  };
}

function renderNav(session: Session | null, current: string): void {
  if (!session) return fill(nav);
  const items = PAGES.map((p) =>
    h(
      "li",
      {},
      h("a", { href: p.hash, "aria-current": p.hash === current ? "page" : null }, p.title),
    ),
  );
  const out = h(
    "button",
    { type: "button", class: "secondary", onclick: () => signOut(services.auth) },
    "Sign out",
  );
  fill(
    nav,
    h("ul", {}, items),
    h(
      "p",
      { class: "note" },
      `Signed in as ${session.name}${session.admin ? " (platform Admin)" : ""}`,
    ),
    out,
  );
}

let session: Session | null = null;

/** Shows the page of the URL; `arrived`: a new page, so focus moves to its start. */
async function route(arrived = false): Promise<void> {
  const hash = PAGES.some((p) => p.hash === location.hash) ? location.hash : PAGES[0].hash;
  renderNav(session, hash);
  if (!session) {
    document.title = "Sign in · API console";
    return signInPage(main, services.auth);
  }
  const page = PAGES.find((p) => p.hash === hash)!;
  document.title = `${page.title} · API console`;
  if (arrived) fill(main, h("p", {}, "Loading…"));
  const again = () => route();
  if (hash === "#/audit") await auditPage(main, session, again);
  else await keysPage(main, session, hash.slice(2) as Api, again);
  if (arrived) main.focus();
}

window.addEventListener("hashchange", () => void route(true));
onAuthStateChanged(services.auth, (user) => {
  void (async () => {
    try {
      session = user ? await sessionOf(user) : null;
    } catch (err) {
      session = null;
      fill(main, h("p", { class: "error", role: "alert" }, inWords(err)));
      return;
    }
    await route(true);
  })();
});
