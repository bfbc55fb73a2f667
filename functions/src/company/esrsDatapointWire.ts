import { z } from "../http/zod";
import { OMISSIONS, UNITS } from "../services/esrs/datapoints";
import { TAXONOMY } from "../services/esrs/publishing";

/** One row of `GET /v1/esrs-s1` (JSON): a datapoint, its value and how it was reached. */
export const datapointSchema = z
  .object({
    datapoint_id: z
      .string()
      .openapi({ example: "S1-14_05", description: "EFRAG IG 3 datapoint id." }),
    esrs_paragraph: z.string().openapi({
      example: "ESRS S1 88 (c)",
      description:
        "Paragraph of ESRS S1 (Delegated Regulation (EU) 2023/2772) the datapoint answers.",
    }),
    name: z.string().openapi({
      example: "rate_of_recordable_work_related_accidents",
      description: "Stable snake_case name.",
    }),
    value: z
      .union([z.number(), z.string()])
      .nullable()
      .openapi({
        description:
          "A number (text for `S1-14_11`), or null when it cannot be computed; `note` then " +
          "says why. Percentages and rates are rounded to two decimals.",
      }),
    unit: z
      .enum(UNITS)
      .openapi({ description: "`percent`, `count`, `per_million_hours`, `days` or `text`." }),
    note: z.string().openapi({
      description:
        "How the value is computed, the period, whether it is incomplete, and the reason " +
        "when the value is null.",
    }),
    breakdown: z
      .object({
        of: z
          .string()
          .openapi({ example: "S1-14_02", description: "The total row this row is part of." }),
        by: z.enum(["person_type", "cause"]).openapi({
          description:
            "`person_type` (¶88: employees / non-employees) or `cause` (AR 82: injury / " +
            "ill health).",
        }),
        member: z.enum(["employee", "non_employee", "other_worker", "injury", "ill_health"]),
      })
      .nullable()
      .openapi({
        description: "Null on the twelve total rows; on a breakdown row, what it breaks down.",
      }),
    concept: z
      .string()
      .nullable()
      .openapi({
        example: "esrs:NumberOfRecordableWorkrelatedAccidents",
        description:
          `The element of the ${TAXONOMY} (prefix \`esrs\`, namespace ` +
          "`https://xbrl.efrag.org/taxonomy/esrs/2023-12-22`) the row's fact takes. Null " +
          "for `S1-14_12` (AR 94), which has no element, and in a report frozen before " +
          "the rows were tagged (it keeps what it said). `S1-14_05` is tagged with the " +
          "taxonomy's percent item `RateOfRecordableWorkrelatedAccidents`, the value per " +
          "million hours as is (the taxonomy does not say how to enter the rate).",
      }),
    xbrl_member: z
      .enum(["esrs:EmployeesMember", "esrs:NonemployeesMember"])
      .nullable()
      .openapi({
        description:
          "The member of `esrs:EmployeesAndNonemployeesAxis` the fact takes where the " +
          "taxonomy tells employees and non-employees apart by member rather than by " +
          "element (`S1-14_06`/`S1-14_08`, `S1-14_07`/`S1-14_09` and the person-type " +
          "breakdowns); null otherwise.",
      }),
    xbrl_value: z
      .union([z.number(), z.string()])
      .nullable()
      .openapi({
        example: 0.8333,
        description:
          "`value` as the taxonomy types it: a percentage as a fraction (83.33 % → " +
          "0.8333), anything else as `value`.",
      }),
    xbrl_unit: z
      .enum(["pure"])
      .nullable()
      .openapi({
        description:
          "`pure` (`xbrli:pure`) for every number: the taxonomy types them as percent, " +
          "integer or decimal items; null for text (a text block).",
      }),
    decimals: z
      .number()
      .int()
      .nullable()
      .openapi({
        example: 2,
        description:
          "XBRL `decimals` of `xbrl_value`: 0 for counts and days, 4 for a fraction (two " +
          "decimals of a percentage), 2 for rates or three significant digits below 1; " +
          "null for text and null values.",
      }),
    period_type: z.enum(["duration", "instant"]).openapi({
      description:
        "`duration` on every row, as the taxonomy declares every S1-14 element (the " +
        "coverage shares included); a report frozen before the rows were tagged keeps the " +
        "`instant` it gave the two coverage shares.",
    }),
    axis: z
      .enum(["person_type", "cause"])
      .nullable()
      .openapi({ description: "The breakdown's axis (`breakdown.by`); null on a total row." }),
    member: z
      .enum(["employee", "non_employee", "other_worker", "injury", "ill_health"])
      .nullable()
      .openapi({ description: "The breakdown's member; null on a total row." }),
    voluntary: z.boolean().openapi({
      description:
        "A datapoint the undertaking may (not must) disclose: `S1-14_08`, `S1-14_09` " +
        "(¶89), `S1-14_12` (AR 94).",
    }),
    omission: z
      .enum(OMISSIONS)
      .nullable()
      .openapi({
        description:
          "Why the company does not disclose it, as marked in the app: " +
          "`not_collected_legal_restrictions` or `voluntary_not_disclosed`; the value is " +
          "then null. Null: not marked.",
      }),
  })
  .openapi("EsrsDatapoint");
