import { isObject } from "../lib/isObject";
import { applyAt, assign, type State } from "./assign";
import { invalidValue } from "./errors";
import type { AttrPath } from "./filter";
import { operationsOf, type Op } from "./patchOp";
import { URN } from "./routeKit";
import { ENTERPRISE_ATTRIBUTES } from "./userSchema";

/**
 * PATCH (RFC 7644 §3.5.2) of the User resource: the PatchOp's operations assigned in order to a
 * copy of the state, all or none.
 */

/** The enterprise extension's URN alone as the path (scim2-tester, some providers). */
const isExtension = (path: AttrPath) =>
  path.uri !== undefined &&
  !path.sub &&
  !path.valueFilter &&
  `${path.uri}:${path.attr}`.toLowerCase() === URN.enterprise.toLowerCase();

/** An operation whose path is the enterprise extension's URN: on each of its attributes. */
function applyToExtension(
  state: State,
  op: Op,
  value: unknown,
  index: number,
  touched?: Set<string>,
): void {
  if (op === "remove") {
    for (const def of ENTERPRISE_ATTRIBUTES)
      applyAt(state, op, { uri: URN.enterprise, attr: def.name }, undefined, true, touched);
    return;
  }
  if (!isObject(value))
    throw invalidValue(
      `Operations[${index}].value must be an object of the extension's attributes.`,
    );
  assign(state, op, value, URN.enterprise, touched);
}

/** Applies a PatchOp request body; `touched` collects the names of the attributes it assigned. */
export function applyPatch(before: State, body: unknown, touched?: Set<string>): State {
  const state = structuredClone(before);
  operationsOf(body).forEach(({ op, path, value }, index) => {
    if (!path) assign(state, op, value, undefined, touched);
    else if (isExtension(path)) applyToExtension(state, op, value, index, touched);
    else applyAt(state, op, path, value, true, touched);
  });
  return state;
}
