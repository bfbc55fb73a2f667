/**
 * A valid Firestore document id: not empty, no slash, not `.`/`..`/`__…__`, at most 1,500 bytes.
 */
export const isDocumentId = (id: string) =>
  id.length > 0 &&
  !id.includes("/") &&
  id !== "." &&
  id !== ".." &&
  !/^__.*__$/.test(id) &&
  Buffer.byteLength(id) <= 1500;
