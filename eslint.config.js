import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// The floors of the server (see docs/architecture.md): shared infrastructure below the domains.
const INFRA = [
  './server/events',
  './server/geo',
  './server/queue',
  './server/db',
  './server/http',
  './server/plugins',
  './server/errors.ts',
  './server/config.ts',
  './server/dependency-errors.ts',
  './server/jwt-secret.ts',
];
const DOMAINS = [
  './server/accounts',
  './server/catalogue',
  './server/lists',
  './server/live',
  './server/map',
  './server/moderation',
  './server/ops',
  './server/photos',
  './server/reviews',
  './server/search',
  './server/share',
  './server/system',
];

// A domain reaches another only through the other's declared interface, its public entry
// server/<name>/index.ts (what the other domains may use of it), or through the event store; what
// a domain asks of another's commands (a cat's photos, a reader's lists, a person's data) is
// declared by the asking domain and wired in the assembly files (routes.ts, personal-data.ts).
const otherDomains = (domain) => DOMAINS.filter((other) => other !== domain);

// The client's floors (see docs/architecture.md): shared code (components/, hooks/, lib/,
// config/) below the features, the features below app/ (the router, the providers, the layout)
// and prerender/ (which renders the shell).
const CLIENT = './client/src';
const FEATURES = readdirSync(new URL('./client/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const otherFeatures = (name) => FEATURES.filter((other) => other !== name);

/** The import plugin as the server's and the client's layering rules both read the tree. */
const IMPORT_X = {
  plugins: { 'import-x': importX },
  settings: {
    'import-x/ignore': ['node_modules'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'client/dist',
      'dist',
      'data',
      'uploads',
      'artifacts',
      'bench/results',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its errors.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // The layering: no import cycles; the server never imports the worker process, the scripts or
    // the process entry; infrastructure never imports a domain; a domain imports another only
    // through its index.ts; the catalogue never imports lists (lists reads the catalogue; the
    // catalogue asks the reader's lists through ReaderLists).
    files: ['main.ts', 'server/**/*.ts', 'workers/**/*.ts', 'scripts/**/*.ts', 'contract/**/*.ts'],
    ...IMPORT_X,
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server',
              from: ['./workers', './scripts', './main.ts'],
              message: 'The server never imports the worker process, the scripts or the process entry.',
            },
            ...INFRA.map((target) => ({
              target,
              from: DOMAINS,
              message: 'Shared infrastructure sits below the domains and never imports one.',
            })),
            {
              target: './contract',
              from: ['./server', './workers', './scripts', './client', './main.ts'],
              message: 'The contract depends on nothing of the app.',
            },
            ...DOMAINS.flatMap((domain) =>
              otherDomains(domain).map((other) => ({
                target: domain,
                from: other,
                except: ['./index.ts'],
                message:
                  'A domain reaches another only through its declared interface, server/<name>/index.ts.',
              })),
            ),
            {
              target: './server/catalogue',
              from: './server/lists',
              message: 'The catalogue reaches the reader’s lists through ReaderLists (see routes.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The client's layering: no import cycles; shared code knows no feature and no part of app/; a
    // feature knows no part of app/, and another feature only through that feature's public entry,
    // `features/<name>/index.ts` (what the other features and app/ may use of it: its sections,
    // hooks and stores, never its api/ files or its cache), and app/ too, but for the route
    // modules (`features/<name>/routes/`), which the router loads lazily one by one. The live
    // stream (features/live) is the one exception the other way round: the features use it, and
    // it reaches them only through `features/<name>/live.ts`, what a feature exports for the
    // stream (the functions that apply its messages to the feature's cache, and their types); so
    // the stream's code never pulls in a feature's screens, and never closes a circle through them.
    files: ['client/src/**/*.{ts,tsx}'],
    ...IMPORT_X,
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: ['components', 'hooks', 'lib', 'config'].map((dir) => `${CLIENT}/${dir}`),
              from: [`${CLIENT}/features`, `${CLIENT}/app`, `${CLIENT}/prerender`],
              message: 'Shared code sits below the features and app/, and imports neither.',
            },
            {
              target: `${CLIENT}/features`,
              from: [`${CLIENT}/app`, `${CLIENT}/prerender`],
              message: 'A feature never imports app/; app/ puts the features together.',
            },
            {
              target: [`${CLIENT}/app`, `${CLIENT}/prerender`],
              from: `${CLIENT}/features`,
              except: FEATURES.flatMap((name) => [`./${name}/index.ts`, `./${name}/routes`]),
              message:
                'app/ reaches a feature through its public entry, features/<name>/index.ts, or its routes.',
            },
            ...otherFeatures('live').map((name) => ({
              target: `${CLIENT}/features/${name}`,
              from: `${CLIENT}/features`,
              except: [`./${name}`, ...otherFeatures(name).map((other) => `./${other}/index.ts`)],
              message: 'A feature reaches another only through its public entry, features/<name>/index.ts.',
            })),
            {
              target: `${CLIENT}/features/live`,
              from: `${CLIENT}/features`,
              except: ['./live', ...otherFeatures('live').map((other) => `./${other}/live.ts`)],
              message:
                'The live stream reaches a feature only through what it exports for it, features/<name>/live.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}', 'tests/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The client knows the server only through the contract, and only its types: the schemas
    // (TypeBox) stay out of the bundle. Two contract modules hold plain values without a schema,
    // and the client imports them as values: the map grid's arithmetic, so that the client puts a
    // live item in the same cell as the server, and the text limits, so that its inputs stop where
    // the server's checks do.
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/workers/**', '**/scripts/**'],
              message: 'Import the contract’s types.',
            },
            {
              group: ['**/contract/**', '!**/contract/map-grid.ts', '!**/contract/text-limits.ts'],
              allowTypeImports: true,
              message: 'Import the contract as types only.',
            },
          ],
          // Its styled entry injects inline styles, which the Content Security Policy refuses.
          paths: [
            {
              name: 'react-hot-toast',
              message: "Use 'react-hot-toast/headless' and components/Toaster.tsx.",
            },
          ],
        },
      ],
    },
  },
);
