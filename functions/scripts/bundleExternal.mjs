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
