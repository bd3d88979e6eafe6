// ESLint flat config: typescript-eslint's `recommended` rules on the TypeScript sources, benchmarks
// and tests; in src/ also the rules that keep stdout for the protocol and files and functions small.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'fixtures/**', 'scripts/**', '**/*.d.mts'] },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'test/**/*.mjs'],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    // The plain-JS test helpers run under Node.
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
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
    },
  },
  {
    // One conversion of file URLs and paths: server locations go through src/service/locate.ts (the
    // real path, inside / external / refused), file URIs for the servers through src/util/uri.ts. A
    // site converting by itself misses the symlink and secret rules, as eight did before.
    files: ['src/**/*.ts'],
    ignores: [
      'src/util/uri.ts',
      'src/service/locate.ts',
      'src/service/locations.ts',
      // the ground floor that finds lspgate's own files from import.meta.url: src/link may import node builtins only
      'src/link/start.ts',
      'src/link/paths.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['node:url', 'url'].map((name) => ({
              name,
              importNames: ['fileURLToPath', 'pathToFileURL'],
              message: 'convert a server location with locate() (src/service/locate.ts), a path for a server with fileUri() (src/util/uri.ts)',
            })),
            { name: 'vscode-uri', message: 'URIs are converted in src/util/uri.ts and src/service/locate.ts only' },
          ],
        },
      ],
    },
  },
);
