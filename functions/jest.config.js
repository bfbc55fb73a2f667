/**
 * Three projects: pure unit tests (no emulator), emulator tests (real Firestore) and stack tests
 * (the built functions in the Functions emulator, triggers firing; run under `emulators.mjs stack`).
 */
const common = {
  preset: "ts-jest",
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] },
};

module.exports = {
  // Contended transactions against the emulator on a 2-core CI machine can take well over
  // jest's 5 s default; the timeout is a hang detector, not a performance check. (A global
  // option: jest ignores testTimeout inside a project.)
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/test/unit/**/*.test.ts"] },
    {
      ...common,
      displayName: "emulator",
      testMatch: ["<rootDir>/test/emulator/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/emulator/env.ts"],
      slowTestThreshold: 30,
    },
    {
      ...common,
      displayName: "stack",
      testMatch: ["<rootDir>/test/stack/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/stack/env.ts"],
      slowTestThreshold: 60,
    },
  ],
};
