import type { Timestamp } from "firebase-admin/firestore";
import type { AuditOrigin } from "../repos/auditLogs";
import {
  changeMembers,
  commitGroup,
  deleteGroupDocument,
  findGroup,
  GroupNameTaken,
  MAX_GROUPS_PER_USER,
  membershipOf,
  membersOf,
  newGroupId,
  type GroupFields,
  type StoredGroup,
} from "../repos/scimGroups";

import { applyGroupMap } from "./groupMap";

export type { GroupFields, Member, StoredGroup } from "../repos/scimGroups";

/**
 * The groups an identity provider pushes (SCIM Groups): a group, its name unique within the
 * company, and its members, who are users on the company's roster. A write changes nothing
 * when it asks for what is there already. Knows nothing of HTTP.
 */
export type GroupsErrorCode = "not_found" | "name_taken" | "invalid_members";

export class GroupsError extends Error {
  constructor(
    readonly code: GroupsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "GroupsError";
  }
}

/** A change of a group's members: the whole list, or ids to add and to remove. */
export type MemberChange = { set: string[] } | { add: string[]; remove: string[] };

export interface GroupChange {
  displayName?: string;
  externalId?: string | null;
  members?: MemberChange;
}

const notFound = () => new GroupsError("not_found", "No such group in this company.");
const unique = (ids: string[]) => [...new Set(ids)];
const listed = (ids: string[]) =>
  ids
    .slice(0, 10)
    .map((id) => JSON.stringify(id))
    .join(", ") + (ids.length > 10 ? ` and ${ids.length - 10} more` : "");

/**
 * The ids to add and to remove for a change, every added one checked (all or none), and those it
 * names whose earlier change is still due (a retry's: it finishes them).
 */
async function membersToChange(
  companyId: string,
  groupId: string,
  change: MemberChange | undefined,
): Promise<{ add: string[]; remove: string[]; due: string[] }> {
  if (!change) return { add: [], remove: [], due: [] };
  const current =
    "set" in change ? (await membersOf(companyId, groupId)).map((m) => m.id) : undefined;
  const wanted = "set" in change ? unique(change.set) : unique(change.add);
  const { invalid, members, full, due } = await membershipOf(companyId, groupId, wanted);
  if (invalid.length)
    throw new GroupsError(
      "invalid_members",
      `Members must be users of this company: ${listed(invalid)} ` +
        `${invalid.length === 1 ? "is" : "are"} not.`,
    );
  if (full.length)
    throw new GroupsError(
      "invalid_members",
      `A user may be a member of at most ${MAX_GROUPS_PER_USER} groups: ` +
        `${JSON.stringify(full[0])} is in as many.`,
    );
  const add = wanted.filter((id) => !members.has(id));
  if ("set" in change) {
    const keep = new Set(wanted);
    return { add, remove: (current ?? []).filter((id) => !keep.has(id)), due: [...due] };
  }
  const adding = new Set(add);
  const removing = unique(change.remove).filter((id) => !adding.has(id));
  const present = await membershipOf(companyId, groupId, removing);
  return {
    add,
    remove: removing.filter((id) => present.members.has(id)),
    due: [...due, ...present.due],
  };
}

/**
 * The group and its audit entry (the member ids added and removed) commit first, then the
 * members' lists, each marked due; a retry after a failure in between completes the change.
 */
async function write(
  companyId: string,
  groupId: string,
  group: GroupFields & { createdAt?: Timestamp },
  action: string,
  members: { add: string[]; remove: string[] },
  origin: AuditOrigin,
): Promise<void> {
  try {
    const ids = { added: members.add, removed: members.remove };
    await commitGroup(companyId, groupId, group, action, ids, origin);
  } catch (err) {
    if (err instanceof GroupNameTaken)
      throw new GroupsError(
        "name_taken",
        `Another group of this company is named ${JSON.stringify(group.displayName)} ` +
          `(compared case-insensitively).`,
      );
    throw err;
  }
  await changeMembers(groupId, members.add, members.remove);
}

export async function createGroup(
  companyId: string,
  fields: GroupFields,
  members: string[],
  origin: AuditOrigin,
): Promise<StoredGroup> {
  const id = newGroupId();
  const change = await membersToChange(companyId, id, { set: members });
  await write(companyId, id, fields, "group.created", change, origin);
  await applyGroupMap(companyId, [...change.add, ...change.due], origin);
  return (await findGroup(companyId, id)) ?? Promise.reject(notFound());
}

export async function updateGroup(
  companyId: string,
  id: string,
  change: GroupChange,
  origin: AuditOrigin,
): Promise<StoredGroup> {
  const current = await findGroup(companyId, id);
  if (!current) throw notFound();
  const members = await membersToChange(companyId, id, change.members);
  const fields: GroupFields = {
    displayName: change.displayName ?? current.displayName,
    externalId: change.externalId === undefined ? current.externalId : change.externalId,
  };
  const same =
    fields.displayName === current.displayName && fields.externalId === current.externalId;
  if (same && !members.add.length && !members.remove.length) {
    await applyGroupMap(companyId, members.due, origin);
    return current;
  }
  await write(
    companyId,
    id,
    { ...fields, createdAt: current.createdAt ?? undefined },
    "group.updated",
    members,
    origin,
  );
  // A rename may change which entry of the group map applies: every member is looked at again.
  const renamed = fields.displayName.trim().toLowerCase() !== current.displayNameKey;
  const affected = renamed
    ? (await membersOf(companyId, id)).map((m) => m.id).concat(members.remove, members.due)
    : [...members.add, ...members.remove, ...members.due];
  await applyGroupMap(companyId, affected, origin);
  return (await findGroup(companyId, id)) ?? Promise.reject(notFound());
}

/** Deletes the group and takes it off every member's list. */
export async function deleteGroup(
  companyId: string,
  id: string,
  origin: AuditOrigin,
): Promise<void> {
  if (!(await findGroup(companyId, id))) throw notFound();
  const remove = (await membersOf(companyId, id)).map((m) => m.id);
  await deleteGroupDocument(companyId, id, remove, origin);
  await applyGroupMap(companyId, remove, origin);
}

export {
  findGroup,
  groupsByIds,
  groupsWhere,
  groupsWindow,
  memberCount,
  membersOf,
} from "../repos/scimGroups";
