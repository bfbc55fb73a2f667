import { cursorPosition, positionCursor, type Position } from "../lib/docPosition";
import { decodeCursor, encodeCursor } from "../repos/cursorCodec";
import { issueToken, readToken, shown } from "./paging";

/** A position of a vessel-wide listing, back from its token (null: no position of ours). */
function positionOfToken(payload: unknown): Position | null {
  const cursor = decodeCursor(payload);
  return cursor && cursorPosition(cursor);
}

/**
 * One page of a vessel-wide listing, which decides for itself where the next page resumes (a
 * scan that may end a page early, or step over what it need not read): `resume` null ends it.
 */
export async function pagedScan<R>(
  q: { page_token?: string; limit: number },
  scope: string,
  fetch: (
    after: Position | undefined,
    limit: number,
  ) => Promise<{ rows: Array<R | null>; resume: Position | null }>,
): Promise<{ data: R[]; next_page_token: string | null }> {
  const after =
    q.page_token === undefined
      ? undefined
      : readToken("page_token", q.page_token, scope, positionOfToken);
  const { rows, resume } = await fetch(after, q.limit);
  return {
    data: shown(rows),
    next_page_token: resume && issueToken(scope, encodeCursor(positionCursor(resume))),
  };
}
