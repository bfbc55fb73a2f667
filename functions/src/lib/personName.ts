/** A person's name in the parts SCIM and `/v1/users` serve (RFC 7643 §4.1.1 `name`). */
export interface NameParts {
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
}

/**
 * The name a user without stored name parts is served with (a user created in the app, which
 * keeps only `displayName`): `formatted` is the display name (not an e-mail address). It is never
 * split into given and family name: which words are the family name cannot be told ("山田 太郎"
 * is family name first, "Jan van der Berg" has three), and a guess would be a name the person does
 * not recognise. `POST`/`PATCH /v1/users` set the parts.
 */
export function nameFromDisplayName(displayName: string | null): NameParts {
  const formatted = displayName?.trim().replace(/\s+/g, " ") ?? "";
  return {
    givenName: null,
    familyName: null,
    formatted: formatted && !formatted.includes("@") ? formatted : null,
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
