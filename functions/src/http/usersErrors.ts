import { UsersError, type UsersErrorCode } from "../services/users/userRefusals";
import { ApiError, type ErrorCode } from "./errors";

/**
 * The users service's refusals and their answers, in one table for both adapters: the envelope
 * code (hence the HTTP status) of `/v1/users` and SCIM alike, the SCIM `scimType`, and the body
 * parameter /v1 names in its message.
 */
interface UsersAnswer {
  code: ErrorCode;
  scimType?: "uniqueness" | "invalidValue";
  param?: string;
}

const ANSWERS: Record<UsersErrorCode, UsersAnswer> = {
  conflict: { code: "conflict", scimType: "uniqueness" },
  username: { code: "conflict", scimType: "uniqueness" },
  domain: { code: "invalid_request", scimType: "invalidValue", param: "email" },
  seats: { code: "seat-capacity-exhausted" },
  deactivated_limit: { code: "conflict" },
  provisioning_off: { code: "forbidden" },
  not_found: { code: "not_found" },
  unknown_department: { code: "invalid_request", scimType: "invalidValue", param: "department" },
  protected: { code: "forbidden" },
};

export const usersAnswer = (err: UsersError): UsersAnswer => ANSWERS[err.code];

/** The audit note of a protecting refusal (the owner's, a Key User's), if it is one. */
export function withRefusedChange<E extends ApiError>(error: E, err: UsersError): E {
  const refused = err.refused;
  if (refused?.uid)
    error.refusedChange = { action: `user.${refused.kind}_refused`, uid: refused.uid };
  return error;
}

/** A refusal as an envelope error (a seat refusal carries `seat_capacity` and `seats_used`). */
export function usersApiError(err: UsersError): ApiError {
  const { code, param } = usersAnswer(err);
  const details: Record<string, number> = err.seats
    ? { seat_capacity: err.seats.capacity, seats_used: err.seats.used }
    : {};
  return withRefusedChange(
    new ApiError(
      code,
      param ? `Invalid body parameter "${param}": ${err.message}` : err.message,
      {},
      details,
    ),
    err,
  );
}

/** Runs a users service call, answering its refusals as envelope errors. */
export const asHttp = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) =>
    Promise.reject(err instanceof UsersError ? usersApiError(err) : err),
  );
