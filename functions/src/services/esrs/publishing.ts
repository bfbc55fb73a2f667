import type { Unit } from "./datapoints";

/** How a figure of the S1-14 export is published: its rounding, its decimals, its XBRL form. */

/**
 * `x` rounded half away from zero to `decimals` places on its decimal form: 15 significant
 * digits first, so that a quotient such as 1.00499999999999989… (the double nearest 1.005)
 * rounds to 1.01, where `Math.round(1.005 * 100) / 100` gives 1.
 */
export function roundHalfUp(x: number, decimals: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const [mantissa, exponent] = Math.abs(x).toPrecision(15).includes("e")
    ? Math.abs(x).toPrecision(15).split("e")
    : [Math.abs(x).toPrecision(15), "0"];
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + decimals}`));
  return Math.sign(x) * Number(`${shifted}e${-decimals}`);
}

/**
 * The decimals a value is published with (its XBRL `decimals`): counts and days are whole numbers;
 * percentages two decimals; rates two decimals, or three significant digits when below 1, so a
 * small rate is never shown as 0. Null for text.
 */
export function decimalsOf(unit: Unit, value: number | null): number | null {
  if (unit === "text") return null;
  if (unit === "count" || unit === "days") return 0;
  if (unit === "per_million_hours" && value !== null && value !== 0 && Math.abs(value) < 1)
    return Math.max(2, 2 - Math.floor(Math.log10(Math.abs(value))));
  return 2;
}

export const published = (unit: Unit, x: number): number =>
  roundHalfUp(x, decimalsOf(unit, x) ?? 0);

/** `value` as the taxonomy types it, and its decimals. */
export function xbrlOf(
  unit: Unit,
  value: number | string | null,
): { xbrl_value: number | string | null; xbrl_unit: "pure" | null; decimals: number | null } {
  if (typeof value !== "number")
    return { xbrl_value: value, xbrl_unit: unit === "text" ? null : "pure", decimals: null };
  const decimals = decimalsOf(unit, value) ?? 0;
  return unit === "percent"
    ? {
        xbrl_value: roundHalfUp(value / 100, decimals + 2),
        xbrl_unit: "pure",
        decimals: decimals + 2,
      }
    : { xbrl_value: value, xbrl_unit: "pure", decimals };
}

/**
 * The taxonomy the rows are tagged with (its elements: docs/company-api.md, "ESRS S1-14"). Every
 * S1-14 element is a `duration` item; a percent, integer or decimal item takes `xbrli:pure`.
 */
export const TAXONOMY = "EFRAG ESRS Set 1 XBRL taxonomy 2023-12-22";
export type XbrlMember = "esrs:EmployeesMember" | "esrs:NonemployeesMember";

const SYSTEM =
  "HealthAndSafetyManagementSystemBasedOnLegalRequirementsAndOrRecognisedStandardsOrGuidelines";
const FATALITIES = "NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelated";
const ACCIDENTS = "NumberOfRecordableWorkrelatedAccidents";
const RATE = "RateOfRecordableWorkrelatedAccidents";
const ILL_HEALTH = "NumberOfCasesOfRecordableWorkrelatedIllHealth";
const DAYS_LOST =
  "NumberOfDaysLostToWorkrelatedInjuriesAndFatalitiesFromWorkrelatedAccidents" +
  "WorkrelatedIllHealthAndFatalitiesFromIllHealth";
const EMPLOYEES = "esrs:EmployeesMember";
const NON_EMPLOYEES = "esrs:NonemployeesMember";

/**
 * Each datapoint's element and, where the taxonomy tells employees and non-employees apart by a
 * member of `esrs:EmployeesAndNonemployeesAxis` rather than by element, its member. S1-14_12
 * (AR 94) has no element.
 */
const ELEMENTS: Record<string, readonly [string, XbrlMember?]> = {
  "S1-14_01": [`PercentageOfPeopleInOwnWorkforceWhoAreCoveredBy${SYSTEM}`],
  "S1-14_02": [`${FATALITIES}InjuriesAndWorkrelatedIllHealth`],
  "S1-14_02.employee": [`${FATALITIES}InjuriesAndWorkrelatedIllHealth`, EMPLOYEES],
  "S1-14_02.non_employee": [`${FATALITIES}InjuriesAndWorkrelatedIllHealth`, NON_EMPLOYEES],
  "S1-14_02.injury": [`${FATALITIES}Injuries`],
  "S1-14_02.ill_health": [`${FATALITIES}IllHealth`],
  "S1-14_03": [
    "NumberOfFatalitiesAsResultOfWorkrelatedInjuriesAndWorkrelatedIllHealth" +
      "OfOtherWorkersWorkingOnUndertakingsSites",
  ],
  "S1-14_04": [ACCIDENTS],
  "S1-14_04.employee": [ACCIDENTS, EMPLOYEES],
  "S1-14_04.non_employee": [ACCIDENTS, NON_EMPLOYEES],
  "S1-14_05": [RATE],
  "S1-14_05.employee": [RATE, EMPLOYEES],
  "S1-14_05.non_employee": [RATE, NON_EMPLOYEES],
  "S1-14_06": [ILL_HEALTH, EMPLOYEES],
  "S1-14_07": [DAYS_LOST, EMPLOYEES],
  "S1-14_08": [ILL_HEALTH, NON_EMPLOYEES],
  "S1-14_09": [DAYS_LOST, NON_EMPLOYEES],
  "S1-14_10": [
    `PercentageOfOwnWorkersCoveredBy${SYSTEM}` +
      "AndWhichHasBeenInternallyAuditedAndOrAuditedOrCertifiedByExternalParty",
  ],
  "S1-14_11": [
    "DescriptionOfUnderlyingStandardsForInternalAuditOrExternalCertification" +
      "OfHealthAndSafetyManagementSystemExplanatory",
  ],
};

/** A datapoint's element (`esrs:` prefixed) and member; nulls for one without an element. */
export function taggingOf(datapointId: string): {
  concept: string | null;
  xbrl_member: XbrlMember | null;
} {
  const element = ELEMENTS[datapointId] as (typeof ELEMENTS)[string] | undefined;
  return element
    ? { concept: `esrs:${element[0]}`, xbrl_member: element[1] ?? null }
    : { concept: null, xbrl_member: null };
}
