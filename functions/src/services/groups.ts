import type { AuditOrigin } from "../repos/auditLogs";
import {
  changeMembers,
  commitGroup,
  findGroup,
  GroupNameTaken,
  MAX_GROUPS_PER_USER,
  membershipOf,
  membersOf,
  newGroupId,
  type GroupFields,
  type GroupState,
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

/** The ids to add and to remove for a change, every added one checked (all or none). */
async function membersToChange(
  companyId: string,
  groupId: string,
  change: MemberChange | undefined,
): Promise<{ add: string[]; remove: string[] }> {
  if (!change) return { add: [], remove: [] };
  const current =
    "set" in change ? (await membersOf(companyId, groupId)).map((m) => m.id) : undefined;
  const wanted = "set" in change ? unique(change.set) : unique(change.add);
  const { invalid, members, full } = await membershipOf(companyId, groupId, wanted);
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
    return { add, remove: (current ?? []).filter((id) => !keep.has(id)) };
  }
  const adding = new Set(add);
  const removing = unique(change.remove).filter((id) => !adding.has(id));
  const present = await membershipOf(companyId, groupId, removing);
  return { add, remove: removing.filter((id) => present.members.has(id)) };
}

async function write(
  companyId: string,
  groupId: string,
  group: GroupState,
  action: string,
  members: { add: string[]; remove: string[] },
  origin: AuditOrigin,
): Promise<void> {
  // A deleted group's id leaves its members first: a retry after a failure finds the group still
  // there.
  if (group === null) await changeMembers(groupId, members.add, members.remove);
  try {
    await commitGroup(companyId, groupId, group, action, origin);
  } catch (err) {
    if (err instanceof GroupNameTaken)
      throw new GroupsError(
        "name_taken",
        `Another group of this company is named ${JSON.stringify(group?.displayName)} ` +
          `(compared case-insensitively).`,
      );
    throw err;
  }
  // Idempotent: a retry after a failure between the group and its members completes the change.
  if (group !== null) await changeMembers(groupId, members.add, members.remove);
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
  await applyGroupMap(companyId, change.add, origin);
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
  if (same && !members.add.length && !members.remove.length) return current;
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
    ? (await membersOf(companyId, id)).map((m) => m.id).concat(members.remove)
    : [...members.add, ...members.remove];
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
  await write(companyId, id, null, "group.deleted", { add: [], remove }, origin);
  await applyGroupMap(companyId, remove, origin);
}

export { findGroup, groupsByIds, groupsWhere, groupsWindow, membersOf } from "../repos/scimGroups";
