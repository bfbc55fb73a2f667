// The packages the bundles leave external (scripts/bundle.mjs), installed by `npm ci` in the
// upload: they read files next to their own code at run time (the Firestore client and google-gax
// their .proto and JSON descriptors, grpc its own), and Cloud Storage loads only when a link is
// signed. scripts/deployPackage.mjs loads each of them from the staged upload.
export const EXTERNAL = [
  "@google-cloud/firestore",
  "@google-cloud/storage",
  "google-gax",
  "@grpc/grpc-js",
  "@grpc/proto-loader",
];

/**
 * The file of a bundle's directory holding a deferred module (scripts/bundle.mjs): an entry of its
 * own, so a start does not even parse it. The module-load bench loads it to end a first call.
 */
export const deferredFile = (path) => `deferred-${path.replace(/[^a-z0-9]+/gi, "-")}.mjs`;
