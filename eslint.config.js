// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const typedFiles = [
  'packages/contract/**/*.{ts,tsx}',
  'server/**/*.{ts,tsx}',
  'web/**/*.{ts,tsx}',
  'e2e/**/*.{ts,tsx}',
  'bench/**/*.{ts,tsx}',
];

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    '**/dist/**',
    '**/coverage/**',
    'data/**',
    'e2e/screenshots/**',
    'test-results/**',
    '.tmp/**',
    // hidden folders hold tooling and scratch files, not sources (ESLint's old default)
    '**/.*/**',
  ]),

  // Plain JavaScript run by Node: scripts, benchmarks.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },

  // TypeScript, type-aware.
  {
    files: typedFiles,
    ignores: ['**/*.config.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      // Fastify plugins are async functions by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      // Fastify route handlers and React event handlers are async by design.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      // Template literals with numbers are everyday formatting, not a bug.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
    },
  },

  // Tool configs (vite, vitest) sit outside some tsconfig projects: syntax-level rules only.
  {
    files: ['**/*.config.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
  },

  // The web app: React hook rules.
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
    rules: {
      // The React Compiler's diagnostics: the app does not use the compiler, and these flag
      // common, correct patterns (resetting a dialog's state when it opens, reading a ref in an
      // event path). Shown by `npm run lint`, not failing it. Rules of hooks stay errors, as do
      // the compiler checks that catch real bugs (setState during render, globals, config).
      'react-hooks/set-state-in-effect': 'warn',
      'react-hooks/refs': 'warn',
      'react-hooks/immutability': 'warn',
      'react-hooks/static-components': 'warn',
      'react-hooks/purity': 'warn',
      'react-hooks/preserve-manual-memoization': 'warn',
      'react-hooks/use-memo': 'warn',
      'react-hooks/incompatible-library': 'off',
      // Handlers declared as methods in props interfaces are passed around unbound by design.
      '@typescript-eslint/unbound-method': 'off',
    },
  },

  // The web app's layers point one way (ARCHITECTURE §6): \`app/\` on top, then \`layout/\` and
  // the features, and \`components/\`, \`lib/\`, \`api/\`, \`actions/\`, \`stores/\` and \`i18n/\` at the
  // bottom. A lower layer never imports a higher one; the features read the registries \`app/\`
  // assembles through context. web/src/layers.test.ts holds the whole rule (no feature imports
  // another, the order of the bottom folders).
  {
    files: ['web/src/{components,lib,api,actions,stores,i18n}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/layout/**', '**/app/**'],
              message: 'The bottom layers import nothing above them: move the piece down instead.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    // a test may hold a feature's pieces against the registries app/ assembles
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/layout/**', '**/app/**'],
              message: 'A feature imports no shell piece: move what it needs to a lower layer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/layout/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**'], message: "The shell's layout imports nothing of app/." },
          ],
        },
      ],
    },
  },

  // One way to the bytes (ARCHITECTURE §3): modules reach file content through the BlobStore,
  // never with `fs` of their own. Programs that work on files (archive extraction into scratch
  // space, text extraction and OCR, finding a tool on PATH) are the exceptions named here.
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'server/src/modules/files/archive.ts',
      'server/src/modules/search/content/**',
      'server/src/modules/*/tools.ts',
      'server/src/modules/*/programs/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['fs', 'fs/promises', 'node:fs', 'node:fs/promises'].map((name) => ({
            name,
            message: 'Reach file content through the BlobStore (server/src/storage/blob-store.ts).',
          })),
        },
      ],
    },
  },

  // A module reaches another through that module's service where a rule lives, or through a
  // repo of it the composition root (services.ts) hands over (ARCHITECTURE "Tables and who owns
  // them"): never a repo it imports and constructs, or reaches through the service's own field.
  // Types of another module's repos and rows may be imported.
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.repo.ts', '../*/*.repo'],
              allowTypeImports: true,
              message:
                "Call the other module's service, or take its repo from the composition root (a type import).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/src/modules/files/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='repo'][object.type='MemberExpression'][object.property.name=/^(files|fileOps|trash|uploads|users|auth|settings|tags|search|images|media|office|menus|history)$/]",
          message:
            "Call the files (or other module's) service, or take its repo from the composition root.",
        },
      ],
    },
  },

  // Tests may use non-null assertions and loosely typed fixtures freely.
  {
    files: ['**/*.test.ts', '**/*.e2e.ts', 'server/test/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
