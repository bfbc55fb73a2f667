import { HttpsError } from "firebase-functions/v2/https";
import { z } from "../http/zod";
import { isReportableYear, MIN_YEAR } from "../lib/months";
import { assertMayReport } from "../services/adminAccess";
import { esrsReport } from "../services/esrs/cache";
import { PeriodNotBegunError } from "../services/esrs/report";
import { callableHandler } from "./callable";
import { companyInput } from "./schemas";

/**
 * `{ companyId, year }`: the company as every console callable names it, and a period named by its
 * start year (the report refuses one that has not begun).
 */
export const esrsS1ReportInput = companyInput.extend({
  year: z
    .number({ message: "year must be a whole number, e.g. 2025" })
    .int("year must be a whole number, e.g. 2025")
    .refine((year) => isReportableYear(year) || isReportableYear(year - 1), {
      message: `year must be from ${MIN_YEAR} to the current UTC year + 1`,
    }),
});

/**
 * The app's ESRS S1-14 export (owner or Admin): the very computation GET /v1/esrs-s1 serves,
 * so the in-app numbers and the API's are the same by construction.
 */
export const esrsS1ReportHandler = callableHandler(
  "esrsS1Report",
  esrsS1ReportInput,
  async (input, caller) => {
    await assertMayReport(caller, input.companyId);
    const report = await esrsReport(input.companyId, input.year).catch((err: unknown) => {
      throw err instanceof PeriodNotBegunError
        ? new HttpsError("invalid-argument", `year: ${err.message}.`)
        : err;
    });
    const { period, status } = report;
    return {
      companyId: report.companyId,
      year: report.year,
      period: {
        start: period.start.toISOString(),
        end: period.end.toISOString(),
        timeZone: period.timeZone,
        firstMonth: period.firstMonth,
        months: period.months,
        ...status,
      },
      workedHours: report.hours,
      generatedAt: report.generatedAt.toISOString(),
      datapoints: report.datapoints,
    };
  },
);
