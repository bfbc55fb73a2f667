import {
  afterFinding,
  comparePositions,
  cursorPosition,
  earliest,
  positionCursor,
  type Position,
} from "../../src/lib/docPosition";
import { parseAttachmentId } from "../../src/services/attachments";

const at = (path: string, index: number | null = null): Position => ({
  segments: path.split("/"),
  index,
});

describe("document positions", () => {
  it("sort as Firestore sorts paths: a finding, its comments, its files, then the next finding", () => {
    const ordered = [
      at("A"),
      at("A/comments/c1", 0),
      at("A/comments/c1", 1),
      at("A/comments/c1"),
      at("A/comments/c2", 0),
      at("A/files/x"),
      afterFinding("A"),
      at("AB"),
      at("AB/comments/c"),
      at("B"),
    ];
    const shuffled = [...ordered].reverse().sort(comparePositions);
    expect(shuffled).toEqual(ordered);
  });

  it("earliest treats null as no bound", () => {
    expect(earliest(null, null)).toBeNull();
    expect(earliest(at("B"), null)).toEqual(at("B"));
    expect(earliest(at("B"), at("A/files/x"))).toEqual(at("A/files/x"));
  });

  it("round-trips through a cursor, and refuses what is no position", () => {
    for (const p of [at("A"), at("A/comments/c", 3), afterFinding("A")])
      expect(cursorPosition(positionCursor(p))).toEqual(p);
    expect(cursorPosition({ value: null, id: "A/comments" })).toBeNull();
    expect(cursorPosition({ value: null, id: "A//c" })).toBeNull();
    expect(cursorPosition({ value: -1, id: "A/comments/c" })).toBeNull();
    expect(cursorPosition({ value: "x", id: "A" })).toBeNull();
  });
});

describe("attachment ids", () => {
  it("name the location image, a file or a comment's n-th file", () => {
    expect(parseAttachmentId("location_details_image")).toEqual({ kind: "location_details_image" });
    expect(parseAttachmentId("file.a.b")).toEqual({ kind: "findings_file", fileId: "a.b" });
    expect(parseAttachmentId("comment.c.1.2")).toEqual({
      kind: "comment",
      commentId: "c.1",
      index: 2,
    });
    for (const bad of ["file.", "comment.c", "comment..1", "x", "comment.c.99999"])
      expect(parseAttachmentId(bad)).toBeNull();
  });
});
