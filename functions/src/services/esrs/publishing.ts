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
