/**
 * The rule for a name (a person's, a group's) and an identifier a person reads: no control (Cc),
 * format (Cf) or line or paragraph separator (Zl, Zp) character, which would show a text other than
 * the one stored (NUL, line breaks, bidi overrides, embeddings and isolates, zero-width spaces).
 * Allowed, as real directories hold them in real names: the joiners U+200C and U+200D (Persian and
 * Indic scripts, emoji sequences), the implicit direction marks U+200E, U+200F and U+061C (a Hebrew
 * or Arabic name pasted from a document; unlike an override they reorder nothing beyond
 * themselves), the soft hyphen U+00AD, and the three emoji flags spelled with tag characters
 * (England, Scotland, Wales); other tag characters would hide text, and are refused.
 */
const CONTROL = /(?!\u200d|[\u200c\u200e\u200f\u061c\u00ad])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const TAG = (letters: string) =>
  [...letters].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
const TAG_FLAG = new RegExp(
  `\u{1F3F4}(?:${["gbeng", "gbsct", "gbwls"].map(TAG).join("|")})\u{E007F}`,
  "gu",
);

export const hasControlOrFormat = (text: string) => CONTROL.test(text.replace(TAG_FLAG, ""));

export const CONTROL_REFUSED =
  "must not contain control or format characters (NUL, bidi overrides, zero-width)";

/**
 * What an identity provider's directory holds by accident inside a name, made plain before the
 * rule above: a tab or line break (from an import) becomes a space, and the invisible word breaks
 * U+200B (Thai and Khmer names), U+2060 and a stray byte-order mark U+FEFF are dropped. What is
 * left is checked, so overrides, embeddings, isolates and other controls are still refused.
 */
export const tidyDirectoryText = (text: string) =>
  text.replace(/[\t\r\n\u2028\u2029]+/g, " ").replace(/[\u200b\u2060\ufeff]/g, "");
