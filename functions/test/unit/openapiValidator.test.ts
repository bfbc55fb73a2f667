import request from "supertest";
import { createFindingsApp } from "../../src/findings/app";
import { createResponseValidator } from "../support/openapiValidator";

describe("response validation against the served document", () => {
  let validate: ReturnType<typeof createResponseValidator>;
  beforeAll(async () => {
    // Public route: no Firestore involved.
    validate = createResponseValidator(
      (await request(createFindingsApp()).get("/v1/openapi.json")).body,
    );
  });

  const error = { error: { code: "not_found", message: "x", request_id: "r" } };

  it("accepts a conforming body", () => {
    expect(() => validate("GET", "/v1/findings/abc/comments", 404, error)).not.toThrow();
    expect(() =>
      validate("GET", "/v1/findings?limit=5", 200, { data: [], next_page_token: null }),
    ).not.toThrow();
  });

  it("rejects a body that breaks the schema", () => {
    expect(() =>
      validate("GET", "/v1/findings", 200, { data: [{ id: 1 }], next_page_token: null }),
    ).toThrow(/does not match/);
    expect(() => validate("GET", "/v1/findings", 200, { data: [] })).toThrow(/next_page_token/);
    expect(() =>
      validate("GET", "/v1/findings/x/comments", 404, {
        error: { code: "nope", message: "x", request_id: "r" },
      }),
    ).toThrow(/does not match/);
  });

  it("rejects a status the operation does not document", () => {
    expect(() => validate("GET", "/v1/project", 404, error)).toThrow(/not documented/);
  });

  it("leaves unknown paths alone", () => {
    expect(() => validate("GET", "/v1/unknown", 404, error)).not.toThrow();
  });
});
