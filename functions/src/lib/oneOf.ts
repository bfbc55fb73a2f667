/**
 * A stored string as one of a closed list of values, or null when it is none of them (bad or
 * unknown data).
 */
export const oneOf = <T extends string>(
  values: readonly T[],
  value: string | null | undefined,
): T | null => ((values as readonly string[]).includes(value ?? "") ? (value as T) : null);
