import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["lib/**", "node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["scripts/**/*.mjs", "*.js", "*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["src/tools/**/*.ts", "src/testing/**/*.ts", "test/**/*.ts"],
    rules: { "no-console": "off" },
  },
);
