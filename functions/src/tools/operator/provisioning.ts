import { ANY_DOMAIN } from "../../repos/companies";
import { KeyAdminError } from "../../services/adminAccess";
import { setProvisioning } from "../../services/companySettings";
import { UsageError, type Command } from "./cli";

/** `provisioning`: the company's provisioning domains and attribute sources. */
export const provisioning: Command = async (values, caller) => {
  const company = values.company;
  if (!company) throw new UsageError("provisioning needs --company");
  if ([values.domains !== undefined, values["any-domain"], values.clear].filter(Boolean).length > 1)
    throw new UsageError("give one of --domains, --clear or --any-domain");
  const change = {
    ...(values.domains !== undefined
      ? {
          provisioningDomains: values.domains
            .split(",")
            .map((d) => d.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values["any-domain"] ? { provisioningDomains: [ANY_DOMAIN] } : {}),
    ...(values.clear ? { provisioningDomains: null } : {}),
    ...(values["roles-source"] !== undefined
      ? { provisioningRolesSource: values["roles-source"] }
      : {}),
    ...(values["department-source"] !== undefined
      ? { provisioningDepartmentSource: values["department-source"] }
      : {}),
  };
  if (!Object.keys(change).length) throw new UsageError("provisioning needs at least one setting");
  // A refused setting is a mistake in the command line (a bad domain or source).
  await setProvisioning(company, change, caller).catch((err: unknown) =>
    Promise.reject(err instanceof KeyAdminError ? new UsageError(err.message) : err),
  );
  return { companyId: company, ...change };
};
