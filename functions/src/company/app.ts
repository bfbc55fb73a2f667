import { createApp } from "../http/createApp";
import { DISCOVERY_ROUTES } from "../scim/discovery";
import { GROUP_ROUTES } from "../scim/groupRoutes";
import { ROOT_SEARCH_ROUTE } from "../scim/rootSearch";
import { scimErrors } from "../scim/scimErrors";
import { SEARCH_ROUTES } from "../scim/search";
import { USER_ROUTES } from "../scim/userRoutes";
import { getEsrsS1 } from "./getEsrsS1";
import { getKpis } from "./getKpis";
import { incidentsDelta } from "./incidentsDelta";
import { listAuditLogs } from "./listAuditLogs";
import { listIncidents } from "./listIncidents";
import { createUser } from "./users/createUser";
import { deleteUser } from "./users/deleteUser";
import { getUser } from "./users/getUser";
import { listUsers } from "./users/listUsers";
import { updateUser } from "./users/updateUser";
import { getWorkedHours, postWorkedHours } from "./workedHoursRoutes";

export const COMPANY_API = {
  api: "company" as const,
  title: "Company Safety-Data and Provisioning API",
  version: "1.0.0",
  openapi: "3.1.0" as const,
  description:
    "Company-wide export of safety data and inbound provisioning. One key per integration: " +
    "`Authorization: Bearer csa_…`, with scopes `read` and `provisioning`. Limits: 60 " +
    "requests per key per UTC " +
    "minute and 10,000 per UTC day (fixed windows; refused requests do not count), `429` " +
    "with `Retry-After` beyond them. " +
    "User provisioning from an identity provider (Microsoft Entra ID, Okta) is served as " +
    "SCIM 2.0 under `/scim/v2` " +
    "(media type `application/scim+json`, errors as SCIM error bodies); it needs a key " +
    "with the `provisioning` scope.",
  defaultBaseUrl: "http://127.0.0.1:5001/demo-safety-apis/europe-west1/companyApi",
  routes: [
    ...[
      listIncidents,
      incidentsDelta,
      getKpis,
      getEsrsS1,
      listAuditLogs,
      listUsers,
      createUser,
      getUser,
      updateUser,
      deleteUser,
      getWorkedHours,
      postWorkedHours,
    ],
    ...[...USER_ROUTES, ...SEARCH_ROUTES, ROOT_SEARCH_ROUTE, ...DISCOVERY_ROUTES, ...GROUP_ROUTES],
  ],
  errorDialects: [scimErrors],
};

export const createCompanyApp = () => createApp(COMPANY_API);
