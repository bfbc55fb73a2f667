import { EmailTakenError } from "../../repos/authAccounts";
/**
 * The users service's refusals: a closed list of codes, each answered by the adapters through
 * one table (http/usersErrors.ts). Knows nothing of HTTP.
 */
export type UsersErrorCode =
  | "conflict"
  | "username"
  | "seats"
  | "deactivated_limit"
  | "not_found"
  | "unknown_department"
  | "protected"
  | "domain"
  | "provisioning_off";

export interface Seats {
  capacity: number;
  used: number;
}

/** A protected user's change that was refused: audited as a privileged entry of its own. */
export type RefusedChange = "deactivation" | "removal" | "address_change";

export class UsersError extends Error {
  /**
   * Set for the refusals that protect the owner and Key Users; `uid`: whose (filled by refusalOf).
   */
  refused?: { kind: RefusedChange; uid?: string };

  constructor(
    readonly code: UsersErrorCode,
    message: string,
    readonly seats?: Seats,
  ) {
    super(message);
    this.name = "UsersError";
  }
}

export const notFound = () => new UsersError("not_found", "No such user in this company.");
/** Auth's own uniqueness refusal, as the service's. */
export const asUsersError = (err: unknown) =>
  err instanceof EmailTakenError ? addressTaken() : err;
export const addressTaken = () =>
  new UsersError("conflict", "A user with this e-mail address already exists.");
export const userNameTaken = () =>
  new UsersError("username", "Another user of the company has this userName.");

export const seatsExhausted = (seats: Seats) =>
  new UsersError(
    "seats",
    `Seat capacity exhausted: all ${seats.capacity} seats of the company are taken ` +
      `(${seats.used} in use). Deactivate a user or add seats in the app first.`,
    seats,
  );

/** The operator command that sets a company's e-mail domains (src/tools/operator.ts). */
const SET_DOMAINS = "npm run keys -- provisioning --company <companyId> --domains contoso.example";

export const provisioningOff = () =>
  new UsersError(
    "provisioning_off",
    `Provisioning creates no users and moves no sign-in addresses for this company until ` +
      `the operator of the service sets its e-mail domains (${SET_DOMAINS}).`,
  );

export const deactivatedLimit = (held: number) =>
  new UsersError(
    "deactivated_limit",
    `The company already holds ${held} deactivated users, as many as it has seats: ` +
      `remove some (DELETE) before creating more users deactivated.`,
  );

const refusing = (kind: RefusedChange, err: UsersError) =>
  Object.assign(err, { refused: { kind } });

export const lastOwner = () =>
  refusing(
    "deactivation",
    new UsersError(
      "protected",
      "This user is the company's only active owner: deactivating or removing them would " +
        "leave the company without one. Make another user owner in the app first.",
    ),
  );

export const protectedAddress = () =>
  refusing(
    "address_change",
    new UsersError(
      "protected",
      "This user is the company's owner or holds the Key User role: their sign-in " +
        "address is changed in the app, not through provisioning.",
    ),
  );

/**
 * Names the user a protecting refusal concerns (a removal's last-owner refusal is the removal's).
 */
export function refusalOf(err: unknown, uid: string, removal = false): unknown {
  if (err instanceof UsersError && err.refused)
    err.refused = { kind: removal ? "removal" : err.refused.kind, uid };
  return err;
}

export function outsideDomains(domain: string, domains: readonly string[]): UsersError {
  const allowed = domains.length
    ? `its domains are ${domains.slice(0, 20).join(", ")}`
    : "it has no e-mail domains configured";
  return new UsersError(
    "domain",
    `The address's domain "${domain.slice(0, 100)}" is not one of the company's e-mail ` +
      `domains (${allowed}); the operator of the service sets them.`,
  );
}

export const unknownDepartment = (name: string) =>
  new UsersError(
    "unknown_department",
    `No department named "${name.trim().slice(0, 200)}" in this company.`,
  );
