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
);
