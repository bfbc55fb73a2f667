/** The key alphabet of the contract: digits, then upper case, then lower case. */
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Writes a non-negative integer in base62, left-padded with `0` to `width` characters. */
export function toBase62(value: number, width = 0): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`toBase62 needs a non-negative safe integer, got ${value}`);
  }
  let out = "";
  let rest = value;
  do {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, "0");
}
