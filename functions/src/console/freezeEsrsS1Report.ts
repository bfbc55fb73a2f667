import { HttpsError } from "firebase-functions/v2/https";
import { assertMayReport } from "../services/adminAccess";
import { FreezeRefusedError, freezeEsrsReport } from "../services/esrs/freeze";
import { PeriodNotBegunError } from "../services/esrs/report";
import { callableHandler } from "./callable";
import { esrsS1ReportInput } from "./esrsS1Report";

/**
 * Freezes a finished year's ESRS S1-14 report (owner or Admin, like esrsS1Report): GET
 * /v1/esrs-s1 then serves that version, with who froze it and when, and lists where today's
 * figures differ. Freezing again keeps the earlier version.
 */
export const freezeEsrsS1ReportHandler = callableHandler(
  "freezeEsrsS1Report",
  esrsS1ReportInput,
  async (input, caller) => {
    await assertMayReport(caller, input.companyId);
    const actor = {
      type: caller.actorType ?? ("user" as const),
      id: caller.uid,
      name: caller.name,
    };
    const { version, frozenAt, report } = await freezeEsrsReport(
      input.companyId,
      input.year,
      actor,
    ).catch((err: unknown) => {
      if (err instanceof PeriodNotBegunError)
        throw new HttpsError("invalid-argument", `year: ${err.message}.`);
      if (err instanceof FreezeRefusedError)
        throw new HttpsError("failed-precondition", err.message);
      throw err;
    });
    return {
      companyId: input.companyId,
      year: input.year,
      version,
      frozenAt: frozenAt.toISOString(),
      frozenBy: actor.name,
      generatedAt: report.generatedAt.toISOString(),
      datapoints: report.datapoints,
    };
  },
);
