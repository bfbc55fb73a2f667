import type { Caller } from "../../services/adminAccess";

/** What the operator command shares among its commands (tools/operator.ts dispatches to them). */

/** A mistake in the command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/** The command line's options, as parsed. */
export interface Options {
  company?: string;
  api?: string;
  name?: string;
  project?: string;
  scopes?: string;
  prefix?: string;
  on?: boolean;
  off?: boolean;
  scope?: string;
  "per-minute"?: string;
  "per-day"?: string;
  clear?: boolean;
  domains?: string;
  "any-domain"?: boolean;
  "roles-source"?: string;
  "department-source"?: string;
}

/** One command: what it prints as JSON. `caller` is the operator (an Admin, actor `system`). */
export type Command = (
  values: Options,
  caller: Caller,
  log: (line: string) => void,
) => Promise<unknown>;

/** The console's input schema applied to the command line, its issues as a usage error. */
export function parse<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ message: string }> } };
  },
  input: unknown,
): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new UsageError(result.error.issues.map((i) => i.message).join("; "));
  return result.data;
}
