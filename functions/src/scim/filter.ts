/**
 * The filter and attribute-path grammar of RFC 7644 §3.4.2.2 and §3.5.2, as a recursive-descent
 * parser over the tokens of filterTokens.ts, producing a syntax tree. It parses the whole grammar
 * (every comparison operator, `pr`, `and`/`or`/`not`, grouping, value paths, schema URIs); what
 * the Users endpoint can answer is decided afterwards (see userFilter.ts), so an unsupported but
 * well-formed filter is told apart from a malformed one. Also accepts one form Microsoft Entra
 * ID sends outside the grammar: a value path followed by a sub-attribute in a comparison,
 * `emails[type eq "work"].value eq "…"`.
 */
import { FilterSyntaxError, quote, tokenize, type CompValue, type Token } from "./filterTokens";

export const COMPARE_OPS = ["eq", "ne", "co", "sw", "ew", "gt", "lt", "ge", "le"] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];

/**
 * `[uri:]attr[.sub]`, or `attr[valueFilter][.sub]`. Names keep their spelling; compare them
 * case-insensitively.
 */
export interface AttrPath {
  uri?: string;
  attr: string;
  sub?: string;
  valueFilter?: Filter;
}

export type Filter =
  | { kind: "compare"; path: AttrPath; op: CompareOp; value: CompValue }
  | { kind: "present"; path: AttrPath }
  /** A value path on its own: some value of the multi-valued attribute matches the filter. */
  | { kind: "has"; path: AttrPath }
  | { kind: "and" | "or"; left: Filter; right: Filter }
  | { kind: "not"; filter: Filter };

export const MAX_FILTER_LENGTH = 1_000;
const MAX_DEPTH = 20;

/**
 * attrPath of the ABNF: `[URI ":"] ATTRNAME *1subAttr`; the URI is everything up to the last colon.
 */
const ATTR_PATH =
  /^(?:(urn:[A-Za-z0-9:._-]+):)?([A-Za-z][A-Za-z0-9_$-]*)(?:\.([A-Za-z][A-Za-z0-9_$-]*))?$/i;
const ATTR_NAME = /^[A-Za-z][A-Za-z0-9_$-]*$/;

function attrPathOf(text: string, at: number): AttrPath {
  const match = ATTR_PATH.exec(text);
  if (!match)
    throw new FilterSyntaxError(`${quote(text)} at position ${at + 1} is not an attribute path.`);
  return {
    ...(match[1] ? { uri: match[1] } : {}),
    attr: match[2],
    ...(match[3] ? { sub: match[3] } : {}),
  };
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private where(token = this.peek()): string {
    return token ? `at position ${token.at + 1}` : "at the end of the filter";
  }

  private keyword(token: Token | undefined, ...words: string[]): string | null {
    if (token?.type !== "word") return null;
    const lower = token.text.toLowerCase();
    return words.includes(lower) ? lower : null;
  }

  private expect(type: "(" | ")" | "]"): void {
    const token = this.peek();
    if (token?.type !== type) throw new FilterSyntaxError(`Expected "${type}" ${this.where()}.`);
    this.i++;
  }

  parseAll(): Filter {
    if (!this.tokens.length) throw new FilterSyntaxError("The filter is empty.");
    const filter = this.or(false);
    if (this.peek())
      throw new FilterSyntaxError(`Unexpected ${this.describe(this.peek())} ${this.where()}.`);
    return filter;
  }

  parsePathOnly(): AttrPath {
    const path = this.path(false);
    if (this.peek())
      throw new FilterSyntaxError(
        `Unexpected ${this.describe(this.peek())} ${this.where()} in the path.`,
      );
    return path;
  }

  private describe(token: Token | undefined): string {
    if (!token) return "end";
    if (token.type === "word") return quote(token.text);
    if (token.type === "value") return `value ${JSON.stringify(token.value)}`;
    return `"${token.type}"`;
  }

  /**
   * `operand (word operand)*`, left-associative: `or` over `and` over the rest (the precedence
   * of RFC 7644).
   */
  private chain(word: "or" | "and", operand: () => Filter): Filter {
    let left = operand();
    while (this.keyword(this.peek(), word)) {
      this.i++;
      left = { kind: word, left, right: operand() };
    }
    return left;
  }

  private or(inValueFilter: boolean): Filter {
    return this.chain("or", () => this.and(inValueFilter));
  }

  private and(inValueFilter: boolean): Filter {
    return this.chain("and", () => this.unary(inValueFilter));
  }

  private unary(inValueFilter: boolean): Filter {
    if (++this.depth > MAX_DEPTH)
      throw new FilterSyntaxError(`The filter nests deeper than ${MAX_DEPTH} levels.`);
    try {
      const token = this.peek();
      if (this.keyword(token, "not") && this.tokens[this.i + 1]?.type === "(") {
        this.i++;
        return { kind: "not", filter: this.group(inValueFilter) };
      }
      if (token?.type === "(") return this.group(inValueFilter);
      return this.attrExp(inValueFilter);
    } finally {
      this.depth--;
    }
  }

  private group(inValueFilter: boolean): Filter {
    this.expect("(");
    const inner = this.or(inValueFilter);
    this.expect(")");
    return inner;
  }

  private path(inValueFilter: boolean): AttrPath {
    const token = this.peek();
    if (token?.type !== "word")
      throw new FilterSyntaxError(
        `Expected an attribute name ${this.where()}, found ${this.describe(token)}.`,
      );
    this.i++;
    const path = attrPathOf(token.text, token.at);
    if (this.peek()?.type !== "[") return path;
    if (inValueFilter) throw new FilterSyntaxError(`Value filters cannot nest (${this.where()}).`);
    if (path.sub)
      throw new FilterSyntaxError(
        `A value filter follows a sub-attribute ${this.where()}; write attr[filter].sub.`,
      );
    this.i++;
    this.depth++;
    const valueFilter = this.or(true);
    this.depth--;
    this.expect("]");
    if (this.peek()?.type === ".") {
      this.i++;
      const sub = this.peek();
      if (sub?.type !== "word" || !ATTR_NAME.test(sub.text))
        throw new FilterSyntaxError(`Expected a sub-attribute name after "." ${this.where(sub)}.`);
      this.i++;
      return { ...path, valueFilter, sub: sub.text };
    }
    return { ...path, valueFilter };
  }

  private attrExp(inValueFilter: boolean): Filter {
    const path = this.path(inValueFilter);
    const token = this.peek();
    if (this.keyword(token, "pr")) {
      this.i++;
      return { kind: "present", path };
    }
    const op = this.keyword(token, ...COMPARE_OPS) as CompareOp | null;
    if (op) {
      this.i++;
      return { kind: "compare", path, op, value: this.compValue() };
    }
    if (path.valueFilter && !path.sub) return { kind: "has", path };
    throw new FilterSyntaxError(
      `Expected an operator (${COMPARE_OPS.join(", ")} or pr) ${this.where(token)}, found ` +
        `${this.describe(token)}.`,
    );
  }

  private compValue(): CompValue {
    const token = this.peek();
    if (token?.type === "value") {
      this.i++;
      return token.value;
    }
    const literal = this.keyword(token, "true", "false", "null");
    if (literal) {
      this.i++;
      return literal === "null" ? null : literal === "true";
    }
    throw new FilterSyntaxError(
      `Expected a value (a JSON string in double quotes, a number, true, false or null) ` +
        `${this.where(token)}, found ${this.describe(token)}.`,
    );
  }
}

function guarded<T>(input: string, what: string, run: (p: Parser) => T): T {
  if (input.length > MAX_FILTER_LENGTH)
    throw new FilterSyntaxError(`The ${what} is longer than ${MAX_FILTER_LENGTH} characters.`);
  return run(new Parser(tokenize(input)));
}

/** Parses a `filter` query parameter; throws FilterSyntaxError naming the position. */
export const parseFilter = (input: string): Filter => guarded(input, "filter", (p) => p.parseAll());

/** Parses a PATCH operation's `path` (`attrPath` or `valuePath [subAttr]`). */
export const parsePath = (input: string): AttrPath =>
  guarded(input, "path", (p) => p.parsePathOnly());
