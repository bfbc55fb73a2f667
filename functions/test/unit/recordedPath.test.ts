import type { Request } from "express";
import { pathOf, requestPath } from "../../src/http/context";
import { MAX_RECORDED_PATH } from "../../src/lib/recordedPath";

const req = (originalUrl: string) => ({ originalUrl }) as Request;

describe("the recorded request path (audit entries, log lines)", () => {
  it("is the path without its query, whole up to 512 characters", () => {
    const path = `/v1/${"p".repeat(MAX_RECORDED_PATH - 4)}`;
    expect(path).toHaveLength(512);
    expect(pathOf(req(`${path}?limit=5`))).toBe(path);
  });

  it("cuts a longer path to 511 characters and an ellipsis: 512 in all", () => {
    const path = `/v1/${"p".repeat(10_000)}`;
    expect(pathOf(req(path))).toBe(`${path.slice(0, 511)}…`);
    expect(pathOf(req(path))).toHaveLength(512);
    expect(requestPath(req(`${path}?x=1`))).toBe(path);
  });

  it("never cuts inside a surrogate pair (the stored text stays well-formed)", () => {
    const path = `/v1/${"p".repeat(506)}😀${"q".repeat(50)}`;
    // 4 + 506 = 510 characters, then the pair at 510–511: a cut at 511 would split it.
    const recorded = pathOf(req(path));
    expect(recorded).toBe(`/v1/${"p".repeat(506)}…`);
    expect(recorded.isWellFormed()).toBe(true);
  });

  it("is the routed path: an absolute-form target or a fragment adds nothing", () => {
    expect(pathOf(req(`http://${"u".repeat(600)}@host/v1/incidents?x=1`))).toBe("/v1/incidents");
    expect(pathOf(req(`/v1/incidents#${"f".repeat(600)}`))).toBe("/v1/incidents");
  });
});
