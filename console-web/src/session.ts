import type { Callables } from "./api";
import type { Services } from "./env";

/** Who is signed in and which company they look at. */
export interface Session {
  services: Services;
  api: Callables;
  uid: string;
  email: string;
  admin: boolean;
  name: string;
  /** Their role in their company (`owner`, `manager`, …); null for a platform Admin. */
  role: string | null;
  keyUser: boolean;
  companies: Array<{ id: string; name: string }>;
  companyId: string | null;
}

/** Re-renders the current page. */
export type Rerender = () => Promise<void>;
