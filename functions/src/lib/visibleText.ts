/**
 * The rule for a name (a person's, a group's) and an identifier a person reads: no control (Cc)
 * or format (Cf) character, which would show a text other than the one stored (NUL, line breaks,
 * bidi overrides, embeddings and isolates, zero-width spaces). Allowed, as real directories hold
 * them in real names: the joiners U+200C and U+200D (Persian and Indic scripts, emoji sequences),
 * the implicit direction marks U+200E, U+200F and U+061C (a Hebrew or Arabic name pasted from a
 * document; unlike an override they reorder nothing beyond themselves), the soft hyphen U+00AD,
 * and an emoji tag sequence (the flags of England, Scotland, Wales), whose tags are Cf too.
 */
const CONTROL = /(?!\u200d|[\u200c\u200e\u200f\u061c\u00ad])[\p{Cc}\p{Cf}]/u;
const TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

export const hasControlOrFormat = (text: string) => CONTROL.test(text.replace(TAG_SEQUENCE, ""));

export const CONTROL_REFUSED =
  "must not contain control or format characters (NUL, bidi overrides, zero-width)";
