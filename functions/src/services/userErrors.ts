/**
 * The users service's refusals: a closed list of codes, each answered by the adapters through
 * one table (http/usersErrors.ts). Knows nothing of HTTP.
 */
export type UsersErrorCode =
  "conflict" | "username" | "seats" | "not_found" | "unknown_department" | "protected" | "domain";

export interface Seats {
  capacity: number;
  used: number;
}

export class UsersError extends Error {
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
export const addressTaken = () =>
  new UsersError("conflict", "A user with this e-mail address already exists.");
export const userNameTaken = () =>
  new UsersError("username", "Another user of the company has this userName.");

export const seatsExhausted = (seats: Seats) =>
  new UsersError(
    "seats",
    `Seat capacity exhausted: all ${seats.capacity} seats of the company are taken (${seats.used} in use). Deactivate a user or add seats in the app first.`,
    seats,
  );

export const lastOwner = () =>
  new UsersError(
    "protected",
    "This user is the company's only active owner: deactivating or removing them would leave the company without one. Make another user owner in the app first.",
  );

export const protectedAddress = () =>
  new UsersError(
    "protected",
    "This user is the company's owner or holds the Key User role: their sign-in address is changed in the app, not through provisioning.",
  );

export function outsideDomains(domain: string, domains: readonly string[]): UsersError {
  const allowed = domains.length
    ? `its domains are ${domains.slice(0, 20).join(", ")}`
    : "it has no e-mail domains configured";
  return new UsersError(
    "domain",
    `The address's domain "${domain.slice(0, 100)}" is not one of the company's e-mail domains (${allowed}); the operator of the service sets them.`,
  );
}

export const unknownDepartment = (name: string) =>
  new UsersError(
    "unknown_department",
    `No department named "${name.trim().slice(0, 200)}" in this company.`,
  );
