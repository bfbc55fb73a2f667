import type { AuditOrigin } from "../repos/auditLogs";
import {
  MAX_KEPT,
  removalPending,
  TooManyKept,
  type PendingChange,
  type RematchKind,
} from "../repos/groupRematches";
import {
  changeMembers,
  commitGroup,
  deleteGroupDocument,
  GroupGone,
  GroupNameTaken,
} from "../repos/scimGroupWrites";
import {
  findGroup,
  MAX_GROUPS_PER_USER,
  memberCount,
  membershipOf,
  newGroupId,
  type GroupFields,
  type StoredGroup,
} from "../repos/scimGroups";
import { applyGroupMap } from "./groupMap";
import { continueRematch } from "./groupSweep";

export type { GroupFields, Member, StoredGroup } from "../repos/scimGroups";

/**
 * The groups an identity provider pushes (SCIM Groups): a group, its name unique within the
 * company, and its members, who are users on the company's roster. A write changes nothing
 * when it asks for what is there already. Knows nothing of HTTP.
 */
export type GroupsErrorCode = "not_found" | "name_taken" | "invalid_members" | "too_many_kept";

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

/** What a change does to the members: ids added and removed, and those a removal of all keeps. */
interface Plan {
  add: string[];
  remove: string[];
  /** Every member not in it leaves (`members` replaced), page by page (services/groupSweep.ts). */
  keep?: string[];
  /** Those it names whose earlier change is still due (a retry's: it finishes them). */
  due: string[];
}

/**
 * The plan of a change, every added id checked (all or none). A replacement reads only the ids it
 * names and counts the group's members: when others are in it, they leave by a pending removal
 * rather than being read here (a group may have 20,000).
 */
async function membersToChange(
  companyId: string,
  groupId: string,
  change: MemberChange | undefined,
  creating = false,
): Promise<Plan> {
  if (!change) return { add: [], remove: [], due: [] };
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
  // Members leaving by a pending removal are added again, so that it keeps them.
  const again = !("set" in change) && wanted.length && (await removalPending(companyId, groupId));
  const add = again ? wanted : wanted.filter((id) => !members.has(id));
  if ("set" in change) {
    const others = creating ? 0 : (await memberCount(groupId)) - members.size;
    return { add, remove: [], due: [...due], ...(others > 0 ? { keep: wanted } : {}) };
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
 * The group, its audit entry (the member ids named) and its pending re-match commit first, then
 * the members named, each marked due; a retry after a failure in between completes the change.
 */
async function write(
  companyId: string,
  groupId: string,
  group: Partial<GroupFields>,
  action: "group.created" | "group.updated",
  pending: PendingChange,
  origin: AuditOrigin,
): Promise<void> {
  try {
    await commitGroup(companyId, groupId, group, action, pending, origin);
  } catch (err) {
    if (err instanceof GroupGone) throw notFound();
    if (err instanceof TooManyKept) {
      // The refused request still moves the removal on, as its message says.
      await continueRematch(companyId, groupId).catch(() => undefined);
      throw new GroupsError(
        "too_many_kept",
        `An earlier change is still removing this group's members, and a change made meanwhile ` +
          `may keep at most ${MAX_KEPT} of them; send the members again once it has finished ` +
          `(each request on the group moves it on by a page, a sweep every 10 minutes the rest).`,
      );
    }
    if (err instanceof GroupNameTaken)
      throw new GroupsError(
        "name_taken",
        `Another group of this company is named ${JSON.stringify(group.displayName)} ` +
          `(compared case-insensitively).`,
      );
    throw err;
  }
  await changeMembers(groupId, pending.added, pending.removed);
}

export async function createGroup(
  companyId: string,
  fields: GroupFields,
  members: string[],
  origin: AuditOrigin,
): Promise<StoredGroup> {
  const id = newGroupId();
  const plan = await membersToChange(companyId, id, { set: members }, true);
  await write(companyId, id, fields, "group.created", { added: plan.add, removed: [] }, origin);
  await applyGroupMap(companyId, [...plan.add, ...plan.due], origin);
  return (await findGroup(companyId, id)) ?? Promise.reject(notFound());
}

/**
 * A change of the group. The members it names get their roles here; a rename (which may change
 * the entry of the group map that applies) and a replacement of the members reach the others by
 * the group's pending re-match, of which this request takes one page and the provider's next
 * request, or else the sweep, the rest.
 */
export async function updateGroup(
  companyId: string,
  id: string,
  change: GroupChange,
  origin: AuditOrigin,
): Promise<StoredGroup> {
  const current = await findGroup(companyId, id);
  if (!current) throw notFound();
  const plan = await membersToChange(companyId, id, change.members);
  const fields: GroupFields = {
    displayName: change.displayName ?? current.displayName,
    externalId: change.externalId === undefined ? current.externalId : change.externalId,
  };
  const same =
    fields.displayName === current.displayName && fields.externalId === current.externalId;
  if (!same || plan.add.length || plan.remove.length || plan.keep) {
    // Whether it renames the group is decided in the write's transaction (repos/scimGroupWrites).
    const start: RematchKind | undefined = plan.keep ? "removal" : undefined;
    const pending = { start, keep: plan.keep, added: plan.add, removed: plan.remove };
    const set = { displayName: change.displayName, externalId: change.externalId };
    await write(companyId, id, set, "group.updated", pending, origin);
  }
  await applyGroupMap(companyId, [...plan.add, ...plan.remove, ...plan.due], origin);
  await continueRematch(companyId, id);
  return (await findGroup(companyId, id)) ?? Promise.reject(notFound());
}

/**
 * Deletes the group; its members leave it by a pending removal, of which this request takes one
 * page and the sweep the rest (the group is gone at once: no role is given by it meanwhile).
 */
export async function deleteGroup(
  companyId: string,
  id: string,
  origin: AuditOrigin,
): Promise<void> {
  if (!(await findGroup(companyId, id))) throw notFound();
  await deleteGroupDocument(companyId, id, origin);
  await continueRematch(companyId, id);
}

export {
  findGroup,
  groupsByIds,
  groupsWhere,
  groupsWindow,
  memberCount,
  membersOf,
} from "../repos/scimGroups";
