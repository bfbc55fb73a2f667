/**
 * The rule for a name (a person's, a group's) and an identifier a person reads: no control (Cc)
 * or format (Cf) character, which would show a text other than the one stored (NUL, line breaks,
 * bidi overrides, zero-width spaces). Allowed: the joiners U+200C and U+200D, which names in
 * Persian or Indic scripts and emoji sequences need, and an emoji tag sequence (the flags of
 * England, Scotland, Wales), whose tags are Cf too.
 */
const CONTROL = /(?![\u200c\u200d])[\p{Cc}\p{Cf}]/u;
const TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

export const hasControlOrFormat = (text: string) => CONTROL.test(text.replace(TAG_SEQUENCE, ""));

export const CONTROL_REFUSED =
  "must not contain control or format characters (NUL, bidi overrides, zero-width)";
