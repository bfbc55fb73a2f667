import { listResponse, URN } from "./routeKit";
import type { ScimUser } from "./userWire";

/**
 * The examples of the SCIM operations in the company API's OpenAPI document (checked against it by
 * the OpenAPI tests).
 */
const LOCATION =
  "https://europe-west1-my-project.cloudfunctions.net/companyApi/scim/v2/Users/" +
  "Xq3b9TtM2hV0sLkP7wZr";

export const SCIM_USER_EXAMPLE: ScimUser = {
  schemas: [URN.user, URN.enterprise],
  id: "Xq3b9TtM2hV0sLkP7wZr",
  externalId: "8c1f0e7a-59d2-4c8e-9a4b-2f7e6d5c4b3a",
  userName: "ola.berg@example.com",
  displayName: "Ola Berg",
  name: { givenName: "Ola", familyName: "Berg" },
  emails: [{ value: "ola.berg@example.com", type: "work", primary: true }],
  active: true,
  roles: [{ value: "standard", primary: true }],
  [URN.enterprise]: { department: "HSE" },
  meta: {
    resourceType: "User",
    created: "2026-11-20T10:12:45.301Z",
    lastModified: "2026-11-20T10:12:45.301Z",
    location: LOCATION,
  },
};

export const SCIM_USER_LIST_EXAMPLE = listResponse([SCIM_USER_EXAMPLE]);

export const SCIM_USER_INPUT_EXAMPLE = {
  schemas: [URN.user, URN.enterprise],
  userName: "ola.berg@example.com",
  externalId: "8c1f0e7a-59d2-4c8e-9a4b-2f7e6d5c4b3a",
  name: { givenName: "Ola", familyName: "Berg" },
  emails: [{ value: "ola.berg@example.com", type: "work", primary: true }],
  active: true,
  [URN.enterprise]: { department: "HSE" },
};

export const SCIM_PATCH_EXAMPLE = {
  schemas: [URN.patchOp],
  Operations: [{ op: "replace", value: { active: false } }],
};

const BASE = "https://europe-west1-my-project.cloudfunctions.net/companyApi/scim/v2";

export const SCIM_GROUP_EXAMPLE = {
  schemas: [URN.group],
  id: "Gp4c2RkN8wQ1mZs5TyVb",
  externalId: "00g1deckcrew",
  displayName: "Deck crew",
  members: [
    {
      value: "Xq3b9TtM2hV0sLkP7wZr",
      display: "Ola Berg",
      $ref: `${BASE}/Users/Xq3b9TtM2hV0sLkP7wZr`,
      type: "User" as const,
    },
  ],
  meta: {
    resourceType: "Group" as const,
    created: "2026-11-21T08:00:00.000Z",
    lastModified: "2026-11-21T08:05:12.440Z",
    location: `${BASE}/Groups/Gp4c2RkN8wQ1mZs5TyVb`,
  },
};
export const SCIM_GROUP_LIST_EXAMPLE = listResponse([SCIM_GROUP_EXAMPLE]);
