// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import pluginQuery from '@tanstack/eslint-plugin-query'
import pluginRouter from '@tanstack/eslint-plugin-router'
import globals from 'globals'
import importX from 'eslint-plugin-import-x'

/** What `src/contract` and `src/domain` may not use: they run in the browser and the server alike. */
const pureModules = [
  { name: 'react', message: 'contract and domain stay free of React.' },
  { name: 'react-dom', message: 'contract and domain stay free of React.' },
]
const purePatterns = [
  {
    group: ['react/*', 'react-dom/*', '@tanstack/*', '@lingui/react*', '@radix-ui/*'],
    message: 'contract and domain stay free of React.',
  },
  { group: ['node:*'], message: 'contract and domain stay free of Node APIs.' },
  { regex: '^\\.\\./(?!contract|domain)', message: 'contract and domain import only each other.' },
]

/** Pages and their pieces render before the router has loaded: its types only. */
const routerValues = {
  name: '@tanstack/react-router',
  allowTypeImports: true,
  message: 'Use AppLink and useAppNavigate (src/ui/nav.tsx): pages render before the router.',
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'src/routeTree.gen.ts',
      'locales/**/*.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-eval': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs['recommended-latest'].rules,
  },
  ...pluginQuery.configs['flat/recommended'],
  ...pluginRouter.configs['flat/recommended'],
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { '@tanstack/query/prefer-query-options': 'error' },
  },
  {
    // Features never import each other: shared pieces move to ui/, domain/, api/ or contract/.
    // Nor what composes them (the app, the routes); and their pages render before the router
    // has loaded (docs/architecture.md, The first load): links and navigation come from ui/nav.
    files: ['src/features/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [routerValues],
          patterns: [
            {
              regex: '^\\.\\./(?!\\.)',
              message: 'A feature may not import another feature; move the shared piece out.',
            },
            { group: ['**/features/*'], message: 'A feature may not import another feature.' },
            {
              regex: '(^|/)(app|routes)/',
              message: 'A feature may not import the app or the routes that compose it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared pieces never reach up into what composes them.
    files: ['src/ui/**/*.{ts,tsx}', 'src/api/**/*.ts', 'src/i18n/**/*.ts', 'src/theme/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [routerValues],
          patterns: [
            {
              regex: '(^|/)(features|app|routes|pwa)/',
              message:
                'ui, api, i18n and theme are shared: they may not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    // The server's layers point one way: routes -> http -> services -> db, adapters, core.
    // Services, adapters, the CLI and core never reach up into the web layer.
    files: [
      'server/services/**/*.ts',
      'server/adapters/**/*.ts',
      'server/cli/**/*.ts',
      'server/core/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(http|routes)(/|$)',
              message: 'Only routes and http/ use the web layer; errors and paging are in core/.',
            },
          ],
        },
      ],
    },
  },
  {
    // No module imports itself through others: layers stay a tree.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'sw/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] }),
      ],
      // Imported modules are read with the TypeScript parser too, or their imports go unseen.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The phone-number rules (libphonenumber-js, about 29 KiB gzip) load with a phone field
    // (src/features/auth/phone-numbers.ts, imported lazily), never with a page.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/features/auth/**',
      'src/contract/sign-up.ts',
      // The server's table of every call; the storefront imports its types only (below).
      'src/contract/endpoints.ts',
      'src/domain/phone.ts',
      '**/*.test.ts',
      'src/test/**',
    ],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src',
              from: ['./src/contract/sign-up.ts', './src/domain/phone.ts'],
              message: 'Only a phone field loads the phone-number rules.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^libphonenumber-js/]',
          message: 'Only a phone field loads the phone-number rules.',
        },
        {
          selector: "ImportDeclaration[importKind!='type'][source.value=/contract\\/endpoints$/]",
          message: 'The table of endpoints holds every schema: the storefront imports its types.',
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts', 'src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: pureModules, patterns: purePatterns }],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'process'].map(
          (name) => ({
            name,
            message: 'contract and domain stay free of DOM and Node globals.',
          }),
        ),
      ],
    },
  },
)
