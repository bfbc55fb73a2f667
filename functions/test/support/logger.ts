/**
 * firebase-functions' logger module itself, not an import's copy of it: a spy on it sees every
 * line src/logs.ts writes.
 */
export const logger: typeof import("firebase-functions/logger") = jest.requireActual(
  "firebase-functions/logger",
);
