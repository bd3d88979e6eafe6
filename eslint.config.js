// ESLint flat config: typescript-eslint's `recommended` rules on the TypeScript sources, benchmarks
// and tests; in src/ also the rules that keep stdout for the protocol and files and functions small.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

const WATCH_MESSAGE = "watch files through the catalog's change feed (catalog.changes), not a watcher of your own: src/catalog/watcher.ts is the only one";
const WATCH_IMPORTS = [
  ...['node:fs', 'fs'].map((name) => ({ name, importNames: ['watch', 'watchFile', 'unwatchFile'], message: WATCH_MESSAGE })),
  ...['node:fs/promises', 'fs/promises'].map((name) => ({ name, importNames: ['watch'], message: WATCH_MESSAGE })),
  { name: 'chokidar', message: WATCH_MESSAGE },
];
// fs.watch(...) / fsp.watch(...) through a default or namespace import of the fs modules
const WATCH_CALLS = [
  {
    selector: 'CallExpression[callee.object.name=/^(fs|fsp|fsPromises|promises|nodeFs)$/][callee.property.name=/^(watch|watchFile)$/]',
    message: WATCH_MESSAGE,
  },
];

// One conversion of file URLs and paths: server locations go through src/service/locate.ts (the
// real path, inside / external / refused), file URIs for the servers through src/util/uri.ts. A
// site converting by itself misses the symlink and secret rules, as eight did before.
const URI_IMPORTS = [
  ...['node:url', 'url'].map((name) => ({
    name,
    importNames: ['fileURLToPath', 'pathToFileURL'],
    message: 'convert a server location with locate() (src/service/locate.ts), a path for a server with fileUri() (src/util/uri.ts)',
  })),
  { name: 'vscode-uri', message: 'URIs are converted in src/util/uri.ts and src/service/locate.ts only' },
];

/** Where structure is decided: see the last block below (and README "Architecture", the lint checks). */
// `new URL(` is a hand-made conversion waiting to happen (`new URL(p).pathname` of a caller's
// file:// path kept a remote host's path and decoded `%2F`): file URLs go through src/util/uri.ts.
const URL_CALLS = [
  {
    selector: "NewExpression[callee.name='URL']",
    message:
      'convert file URLs and paths in src/util/uri.ts (fileUri, pathOfUri, localPathOfFileUrl, modulePath); an HTTP URL is parsed where a front-end serves HTTP',
  },
];

export const STRUCTURE_MODULES = [
  'src/syntax/**/*.ts',
  'src/adapters/file-structure.ts',
  'src/adapters/structure-forms.ts',
  'src/adapters/syntax-forms.ts',
  'src/adapters/*/structure.ts',
  'src/adapters/*/syntax.ts',
  'src/service/structure-index.ts',
  'src/service/relations/**/*.ts',
  'src/analysis/patterns/**/*.ts',
  'src/analysis/reports/dead-code.ts',
  'src/chunks/chunker.ts',
  'src/chunks/split.ts',
];

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'fixtures/**', 'scripts/**', '**/*.d.mts'] },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'test/**/*.mjs'],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    // The plain-JS test helpers run under Node.
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // One order of imports and exports everywhere (packages, then the project's own by path), fixed by
      // `eslint --fix`: a reader finds an import where the order says, and a merge adds no reordering.
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // A leading underscore is this codebase's way to name a value it drops on purpose
      // (`const { _meta: _m, ...rest } = result`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // MCP and the sidecar speak on stdout: one stray console.log corrupts the protocol stream.
      'no-console': 'error',
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      // One watcher: the catalog's (src/catalog/watcher.ts). Everything else learns of changes on disk
      // from the catalog's change feed, after its gate — a second watcher sees files the gate refuses
      // and tells its listeners what the servers, the import graph and the chunk index never hear.
      'no-restricted-imports': ['error', { paths: [...WATCH_IMPORTS, ...URI_IMPORTS] }],
      'no-restricted-syntax': ['error', ...WATCH_CALLS, ...URL_CALLS],
    },
  },
  {
    // the allow-list: the catalog's directory watcher is the one place fs.watch runs
    files: ['src/catalog/watcher.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: URI_IMPORTS }], 'no-restricted-syntax': 'off' },
  },
  {
    // the allow-list of the one location path: the URI module, the location modules, and the modules
    // that find lspgate's own files from import.meta.url (src/link may import node builtins only; a
    // worker's script path)
    files: [
      'src/util/uri.ts',
      'src/service/locate.ts',
      'src/service/locations.ts',
      'src/link/start.ts',
      'src/link/paths.ts',
      'src/link/node-floor.ts',
      'src/link/full-cli.ts',
      'src/util/worker-script.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: WATCH_IMPORTS }], 'no-restricted-syntax': ['error', ...WATCH_CALLS] },
  },
  {
    // HTTP, not files: the MCP HTTP front-end parses its request URLs and Origin headers. And the thin
    // client reads the operation list beside its own module: it loads node builtins and src/link only
    files: ['src/frontends/mcp/http.ts', 'src/frontends/mcp/http-guards.ts', 'src/cli/thin/tools.ts'],
    rules: { 'no-restricted-syntax': ['error', ...WATCH_CALLS] },
  },
  {
    // The modules that decide structure — type relations, declaration headers, decorators and
    // attributes, syntax patterns, chunk boundaries — read it from parse trees: a regex here would
    // read it from text again. A rule over a name, a path or a literal's content that must stay says
    // so in an eslint-disable comment with its reason.
    files: STRUCTURE_MODULES,
    rules: {
      'no-restricted-syntax': [
        'error',
        // a later entry replaces a rule rather than adding to it: the watcher rule is repeated here
        ...WATCH_CALLS,
        ...URL_CALLS,
        {
          selector: 'Literal[regex]',
          message:
            'Structure comes from parse trees (src/adapters/file-structure.ts): no regex here; a rule over a name or path says so in an eslint-disable comment.',
        },
        {
          selector: "NewExpression[callee.name='RegExp'], CallExpression[callee.name='RegExp']",
          message: 'Structure comes from parse trees (src/adapters/file-structure.ts): no RegExp here.',
        },
      ],
    },
  },
);
