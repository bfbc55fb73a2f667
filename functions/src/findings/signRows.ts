import { mapPool } from "../lib/pool";
import { attachmentIdOf, type AttachmentItem } from "../services/attachments";
import { noteSigningFailure, signReadUrl } from "../services/signing";
import { attachmentRow } from "./attachmentRows";
import type { Attachment } from "./schemas";

/** Signing calls in flight at once (IAM signBlob in production takes tens of milliseconds each). */
const SIGNING_CONCURRENCY = 16;

/** The path of an attachment's content route, which answers 302 to a fresh link. */
const contentPath = (findingId: string, item: AttachmentItem) => {
  const [finding, attachment] = [findingId, attachmentIdOf(item.source)].map(encodeURIComponent);
  return `/v1/findings/${finding}/attachments/${attachment}/content`;
};

async function signed(
  { source, target }: AttachmentItem,
  now: number,
): Promise<Omit<Attachment, "content_url">> {
  const row = attachmentRow(source);
  if ("error" in target)
    return {
      ...row,
      download_url: null,
      download_url_expires_at: null,
      download_error: target.error,
    };
  try {
    const { url, expiresAt } = await signReadUrl(target.bucket, target.path, now);
    return {
      ...row,
      download_url: url,
      download_url_expires_at: expiresAt.toISOString(),
      download_error: null,
    };
  } catch (err) {
    noteSigningFailure(target.bucket, err);
    return {
      ...row,
      download_url: null,
      download_url_expires_at: null,
      download_error: "signing_failed",
    };
  }
}

/**
 * The wire rows of attachments, each with its link signed and its `content_url` (absolute, on
 * `base`, the API's address as the caller reached it). One clock reading for the whole
 * response: every link expires at the same instant.
 */
export function signRows(
  rows: ReadonlyArray<{ findingId: string; item: AttachmentItem }>,
  base: string,
): Promise<Attachment[]> {
  const now = Date.now();
  return mapPool([...rows], SIGNING_CONCURRENCY, async ({ findingId, item }) => ({
    ...(await signed(item, now)),
    content_url: `${base}${contentPath(findingId, item)}`,
  }));
}
