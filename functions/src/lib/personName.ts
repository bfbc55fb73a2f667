/** A person's name in the parts SCIM and `/v1/users` serve (RFC 7643 §4.1.1 `name`). */
export interface NameParts {
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
}

/** A word of a name as people write one: letters, marks, apostrophes, hyphens, periods. */
const NAME_WORD = /^[\p{L}\p{M}'’.-]+$/u;

/**
 * The name a user without stored name parts is served with (a user created in the app, which
 * keeps only `displayName`), so that an identity provider importing the user (Okta, Entra ID)
 * finds one: `formatted` is the display name; it is split into given and family name only when
 * it is exactly two words ("Kari Nordmann"), the one split its owner would recognise. One word,
 * three or more ("Mary Ann Smith", "Jan van der Berg": which words are the family name cannot
 * be told), a comma ("Nordmann, Kari") or an e-mail address give no parts, never a guess.
 */
export function nameFromDisplayName(displayName: string | null): NameParts {
  const formatted = displayName?.trim().replace(/\s+/g, " ") ?? "";
  if (!formatted || formatted.includes("@"))
    return { givenName: null, familyName: null, formatted: null };
  const words = formatted.split(" ");
  const split = words.length === 2 && words.every((w) => NAME_WORD.test(w));
  return {
    givenName: split ? words[0] : null,
    familyName: split ? words[1] : null,
    formatted,
  };
}

/**
 * A user's name: the parts an identity provider sent, as sent, when it sent any; else the one
 * their display name gives.
 */
export function servedName(user: {
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
}): NameParts {
  const sent = [user.givenName, user.familyName, user.formattedName].some((v) => v !== null);
  return sent
    ? { givenName: user.givenName, familyName: user.familyName, formatted: user.formattedName }
    : nameFromDisplayName(user.displayName);
}
