/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as used by zip and PNG. */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of the UTF-8 bytes of `input`, as an unsigned 32-bit integer. */
export function crc32(input: string | Uint8Array): number {
  const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  let crc = 0xffffffff;
  for (const byte of bytes) crc = TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
