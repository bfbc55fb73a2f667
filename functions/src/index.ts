/*
 * Every deployed function, for the deploy tooling's discovery and the tests. Each file of
 * functions/ declares the functions that share one trigger kind, and the build bundles each file
 * on its own (scripts/bundle.mjs): an instance loads only its function's bundle, and each
 * function loads its own modules at its first call (`import()`, cached by Node), so a cold start
 * pays for that function's module graph only (docs/benchmarks.md, "Cold start").
 */
export * from "./functions/companyApi";
export * from "./functions/console";
export * from "./functions/findingsApi";
export * from "./functions/jobs";
export * from "./functions/signIn";
export * from "./functions/triggers";
