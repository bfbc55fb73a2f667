/**
 * The tokens of the SCIM filter grammar (RFC 7644 §3.4.2.2): words, JSON values and punctuation,
 * each with its position, for the parser in filter.ts. A malformed filter throws
 * FilterSyntaxError naming the position.
 */
export class FilterSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FilterSyntaxError";
  }
}

export type CompValue = string | number | boolean | null;

export type Token =
  | { type: "(" | ")" | "[" | "]" | "."; at: number }
  | { type: "word"; text: string; at: number }
  | { type: "value"; value: CompValue; at: number };

const WORD = /[A-Za-z][A-Za-z0-9_:.$-]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A JSON string: no raw control characters (U+0000–U+001F), escapes as JSON has them.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

export const quote = (text: string) =>
  JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

function sticky(re: RegExp, input: string, at: number): string | null {
  re.lastIndex = at;
  return re.exec(input)?.[0] ?? null;
}

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < input.length) {
    const c = input[at];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      at++;
    } else if (c === "(" || c === ")" || c === "[" || c === "]" || c === ".") {
      tokens.push({ type: c, at });
      at++;
    } else if (c === '"') {
      const text = sticky(STRING, input, at);
      if (!text)
        throw new FilterSyntaxError(
          `Unterminated or malformed string at position ${at + 1}; values are JSON strings in ` +
            `double quotes.`,
        );
      const value = JSON.parse(text) as string;
      // `"\ud800"` escapes decode to a lone surrogate, which no stored text can equal.
      if (!value.isWellFormed())
        throw new FilterSyntaxError(
          `The string at position ${at + 1} is not well-formed Unicode (a lone UTF-16 surrogate).`,
        );
      tokens.push({ type: "value", value, at });
      at += text.length;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      const text = sticky(NUMBER, input, at);
      if (!text) throw new FilterSyntaxError(`Malformed number at position ${at + 1}.`);
      tokens.push({ type: "value", value: Number(text), at });
      at += text.length;
    } else {
      const text = sticky(WORD, input, at);
      if (!text)
        throw new FilterSyntaxError(`Unexpected character ${quote(c)} at position ${at + 1}.`);
      tokens.push({ type: "word", text, at });
      at += text.length;
    }
  }
  return tokens;
}
