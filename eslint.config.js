// ESLint flat config: typescript-eslint's `recommended` rules on the TypeScript sources, benchmarks
// and tests; in src/ also the rules that keep stdout for the protocol and files and functions small.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Where structure is decided: see the last block below (and README "Architecture", the lint checks). */
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
    // The modules that decide structure — type relations, declaration headers, decorators and
    // attributes, syntax patterns, chunk boundaries — read it from parse trees: a regex here would
    // read it from text again. A rule over a name, a path or a literal's content that must stay says
    // so in an eslint-disable comment with its reason.
    files: STRUCTURE_MODULES,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[regex]', message: 'Structure comes from parse trees (src/adapters/file-structure.ts): no regex here; a rule over a name or path says so in an eslint-disable comment.' },
        { selector: "NewExpression[callee.name='RegExp'], CallExpression[callee.name='RegExp']", message: 'Structure comes from parse trees (src/adapters/file-structure.ts): no RegExp here.' },
      ],
    },
  },
);
