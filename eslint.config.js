import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "bench/results/**", "coverage/**", ".dependency-cruiser.cjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.property.name='only']", message: "No .only in tests." },
        { selector: "CallExpression[callee.property.name='skip']", message: "No skipped tests." },
      ],
    },
  },
  {
    files: ["src/**"],
    ignores: ["src/jobs/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "bullmq", message: "Only src/jobs/ imports bullmq." }] }],
    },
  },
  {
    files: ["src/core/derive/**", "src/core/reconcile/**", "src/core/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: ["undici", "bullmq", "ioredis", "pino", "node:*"],
        },
      ],
    },
  },
  { files: ["eslint.config.js"], extends: [tseslint.configs.disableTypeChecked] },
);
