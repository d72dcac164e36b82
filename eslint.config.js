// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

const noFocusedTests = [
  { object: 'it', property: 'only', message: 'Focused tests must not be committed.' },
  { object: 'test', property: 'only', message: 'Focused tests must not be committed.' },
  { object: 'describe', property: 'only', message: 'Focused tests must not be committed.' },
];

/** Every file under src/ (ARCHITECTURE.md principle 2, issue 15). */
const srcPatterns = [
  {
    regex: '(^|/)engine/(?!index(\\.ts)?$)',
    message: 'src/ may import the engine only through engine/index.ts.',
  },
  {
    regex: '(^|/)server/',
    message: 'src/ may not import the server: the operator API is contract/admin (issue 31 item 2).',
  },
  {
    // The route table holds zod schemas: the console takes its types only, the schemas stay server-side.
    regex: '(^|/)contract/admin/routes$',
    allowTypeImports: true,
    message: 'src/ imports contract/admin/routes.ts for its types only (import type).',
  },
  {
    // Issue 15: the deleted copies of the money rules stay deleted.
    regex: '(^|/)(lib/decimal|machines/withdrawal-rules|lib/amount)$',
    importNames: ['toMicro', 'scaled', 'microToString', 'formatMicro', 'DEFAULT_SCALE'],
    message: 'Money is parsed by engine/money.ts: import parseAmountText from engine/index.ts.',
  },
];

/** Every file under src/: money is engine/money.ts's (issue 15). */
const srcSyntax = [
  {
    selector: "Literal[bigint='1000000']",
    message: 'The micro-unit scale is SCALE from engine/index.ts (engine/money.ts), not a copy.',
  },
  {
    selector:
      ':matches(FunctionDeclaration, VariableDeclarator)[id.name=/^(toMicro|microTo[A-Z]\\w*|parseAmount\\w*|roundDecimal|formatDecimal|compareDecimal)$/]',
    message:
      'src/ may not define its own money parsing or formatting: use engine/money.ts via engine/index.ts.',
  },
];

/** A route's path written out where a link or a navigation names it (to="/user", navigate('/login')). */
const pathMessage =
  'Name the route: PATHS.<screen> (and pathWith for a search string) from src/lib/paths.ts.';
const literalPathSyntax = [
  { selector: "JSXAttribute[name.name='to'] Literal[value=/^\\//]", message: pathMessage },
  { selector: "JSXAttribute[name.name='to'] TemplateElement[value.raw=/^\\//]", message: pathMessage },
  {
    selector: "Property[key.name='to'] > :matches(Literal[value=/^\\//], TemplateLiteral)",
    message: pathMessage,
  },
  {
    selector: "CallExpression[callee.name='navigate'] > :matches(Literal[value=/^\\//], TemplateLiteral)",
    message: pathMessage,
  },
];

/**
 * Issue 15 item 4: features stand alone. A feature (src/features/<name>) imports shared code (src/ui, src/lib,
 * src/sync, src/api, src/state, src/machines) and its own files, never another feature; shared code never imports
 * a feature. Only src/app (the route table, the shell) composes features. One block per feature, generated
 * from the folder list, so a new feature is covered the day it is created.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/**
 * Issue 31 item 4: src/app composes the features (the route table, the shell), so neither the features nor
 * the shared code import it; the state they share with it (toasts, the stored user, the session, popups,
 * the theme, the profile) is src/state. Test files may render the app (src/app/test-utils.tsx).
 */
const noAppImport = {
  regex: '^(\\.\\./)+app/',
  message: 'src/app composes the features and may not be imported by them or by shared code: use src/state.',
};
const TESTS = ['src/**/*.test.{ts,tsx}'];
/**
 * The same restricted imports for a folder's code (with `strict`) and its tests (without).
 * @param {string[]} files
 * @param {object[]} patterns
 * @param {object[]} strict
 */
function importBlocks(files, patterns, strict) {
  /** @param {object[]} list */
  const rule = (list) => ({ 'no-restricted-imports': ['error', { patterns: list }] });
  return [
    { files, ignores: TESTS, rules: rule([...patterns, ...strict]) },
    {
      files: files.map((glob) => glob.replace('**/*.{ts,tsx}', '**/*.test.{ts,tsx}')),
      rules: rule(patterns),
    },
  ];
}
const featureBlocks = features.flatMap((name) =>
  importBlocks(
    [`src/features/${name}/**/*.{ts,tsx}`],
    [
      ...srcPatterns,
      {
        regex: `^\\.\\./(?!\\.)(?!${name}/)|(^|/)features/(?!${name}/)`,
        message: `src/features/${name} may not import another feature: move shared code to src/ui or src/lib.`,
      },
    ],
    [noAppImport],
  ),
);
const sharedBlocks = importBlocks(
  ['src/{ui,lib,sync,api,machines,i18n,pwa,worker,styles,state}/**/*.{ts,tsx}'],
  [
    ...srcPatterns,
    { regex: '(^|/)features/', message: 'Shared code may not import a feature (issue 15 item 4).' },
  ],
  [noAppImport],
);

/**
 * Issue 31 item 4: the micro-unit scale is engine/money.ts's SCALE (and PPM for rates), never a copy. Applied
 * to engine/ (but money.ts) and server/.
 */
const moneyScaleSyntax = [
  {
    selector: "Literal[bigint='1000000']",
    message: 'The micro-unit scale is SCALE (rates: PPM) from engine/money.ts, not a copy.',
  },
  {
    selector: "BinaryExpression[operator='**'][left.bigint='10'][right.bigint='6']",
    message: 'The micro-unit scale is SCALE from engine/money.ts, not a copy.',
  },
];

/** engine/'s own syntax rules (ARCHITECTURE.md principles 3 and 4). */
const engineSyntax = [
  {
    selector: "CallExpression[callee.name='parseFloat']",
    message: 'Money is exact: use engine/money.ts.',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Use the injected clock.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-live', 'dist-server', 'dev-dist', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', ...noFocusedTests],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // ARCHITECTURE.md principle 2: the app reaches the engine only through its public entry.
      'no-restricted-imports': [
        'error',
        {
          patterns: srcPatterns,
        },
      ],
      // Issue 15 (docs/DECISIONS.md "One money module"): src/ defines no money parser or formatter of its
      // own and no micro-unit scale; it uses engine/money.ts through engine/index.ts.
      'no-restricted-syntax': ['error', ...srcSyntax],
    },
  },
  ...featureBlocks,
  ...sharedBlocks,
  {
    // Issue 31 item 1: screens and shared UI link by name (PATHS in src/lib/paths.ts), never by a literal
    // path, so a renamed or removed route fails the typecheck where it is linked.
    files: ['src/{features,ui}/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...srcSyntax, ...literalPathSyntax] },
  },
  {
    // ARCHITECTURE.md principles 2 and 3: the engine is pure of UI, DOM, raw timers and ambient randomness.
    files: ['engine/**/*.ts'],
    ignores: ['engine/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)src/', message: 'engine/ may not import the app (src/).' },
            {
              regex: '^(react|react-dom|react-router|react-router-dom|i18next|react-i18next)(/|$)',
              message: 'engine/ may not import UI libraries.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'localStorage',
          'sessionStorage',
          'navigator',
          'fetch',
          'setTimeout',
          'setInterval',
          'requestAnimationFrame',
          'XMLHttpRequest',
        ].map((name) => ({
          name,
          message: 'engine/ gets time, I/O and scheduling injected (ARCHITECTURE.md principle 3).',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...noFocusedTests,
        { object: 'Date', property: 'now', message: 'Use the injected clock.' },
        { object: 'Math', property: 'random', message: 'Use the seeded random source.' },
        { object: 'Number', property: 'parseFloat', message: 'Money is exact: use engine/money.ts.' },
      ],
      'no-restricted-syntax': ['error', ...engineSyntax, ...moneyScaleSyntax],
    },
  },
  {
    // The one module that defines the scale.
    files: ['engine/money.ts'],
    rules: { 'no-restricted-syntax': ['error', ...engineSyntax] },
  },
  {
    // ARCHITECTURE.md "Boundaries": the server reaches the engine through its two public entries only.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)engine/(?!(index|server)(\\.ts)?$)',
              message: 'server/ imports the engine through engine/index.ts or engine/server.ts only.',
            },
            { regex: '(^|/)src/', message: 'server/ may not import the app (src/).' },
            {
              // Issue 31 item 3: a dependency's internals are not its interface (they change under a ^ range).
              regex: '^@fastify/[^/]+/.',
              message: "A Fastify plugin's internals are not its API: use its documented options.",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...moneyScaleSyntax,
        {
          selector: "CallExpression[callee.name='createRequire']",
          message:
            "server/ is ESM: a createRequire is how a package's internal files get loaded; use its API.",
        },
      ],
    },
  },
  {
    // Issue 31 item 4: no import cycles (value imports; `import type` is erased at build).
    files: ['engine/**/*.ts', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
