/**
 * The TypeScript and JavaScript language profiles (language-profile.ts). Both are served by the
 * typescript adapter (typescript-language-server, or tsgo); they differ in their grammars and in
 * TypeScript-only syntax (`import x = require()`), and share the rest.
 */
import type { LanguageProfile } from '../language-profile.js';
import { JS_DECLARATIONS, TS_DECLARATIONS } from './nav-symbols.js';
import { NODE_PROJECT, nodeExportedApi } from './package-json.js';
import {
  JS_BODIES,
  JS_DECORATIONS,
  JS_EXPORT_CLAUSES,
  JS_NAMED_DECLARATIONS,
  JS_TYPE_HEADERS,
  TS_ALIASES,
  TS_DECORATIONS,
  TS_NAMED_DECLARATIONS,
  TS_TYPE_HEADERS,
} from './structure.js';
import { JS_COMPLEXITY, JS_IMPORTS, JS_PATTERNS, TS_IMPORTS } from './syntax.js';
import { tsconfigScope } from './tsconfig-scope.js';

const shared: Omit<LanguageProfile, 'name' | 'languageIds' | 'grammars' | 'syntax'> = {
  tests: {
    runners: [
      { runner: 'jest/vitest', description: 'jest, vitest and mocha pick *.test.* and *.spec.* files', files: /\.(test|spec)\.([cm]?[jt]sx?|d\.[cm]?ts)$/i },
    ],
    // jest's __tests__ and __mocks__, mocha's test/, jasmine's spec/, and fixtures (test inputs)
    directories: ['test', 'tests', '__tests__', 'spec', 'specs', '__mocks__', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  comments: { line: '//' },
  declarations: {
    elementType(s, file) {
      if (s.kind !== 'function') return undefined;
      if (/^use[A-Z]/.test(s.name)) return 'hook';
      return /\.(tsx|jsx)$/.test(file) && /^[A-Z]/.test(s.name) ? 'component' : undefined;
    },
    // `interface X` and `const X` (or a class and a namespace) of one module are one symbol to the compiler
    mergesDeclarations: true,
    reExports: true,
    exportKeyword: 'export',
    outlineSignatureLeadingWords: ['export', 'default'],
  },
  types: {},
  deadCode: { entryPoints: ['main'], exportedApi: nodeExportedApi },
  project: NODE_PROJECT,
  chunks: { elision: '{ … }' },
};

export const typescriptProfile: LanguageProfile = {
  ...shared,
  name: 'typescript',
  languageIds: ['typescriptreact'],
  grammars: { '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'tsx' },
  syntax: {
    imports: TS_IMPORTS,
    patterns: JS_PATTERNS,
    complexity: JS_COMPLEXITY,
    typeHeaders: TS_TYPE_HEADERS,
    aliases: TS_ALIASES,
    exportClauses: JS_EXPORT_CLAUSES,
    decorations: TS_DECORATIONS,
    bodies: JS_BODIES,
    declarations: TS_DECLARATIONS,
    namedDeclarations: TS_NAMED_DECLARATIONS,
  },
  // a TypeScript file no tsconfig takes is outside every project a reference search covers
  project: { ...NODE_PROJECT, serverScope: tsconfigScope },
};

export const javascriptProfile: LanguageProfile = {
  ...shared,
  name: 'javascript',
  languageIds: ['javascriptreact'],
  // The JavaScript grammar parses JSX too.
  grammars: { '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript' },
  interpreters: { node: '.js', nodejs: '.js' },
  syntax: {
    imports: JS_IMPORTS,
    patterns: JS_PATTERNS,
    complexity: JS_COMPLEXITY,
    typeHeaders: JS_TYPE_HEADERS,
    aliases: TS_ALIASES,
    exportClauses: JS_EXPORT_CLAUSES,
    decorations: JS_DECORATIONS,
    bodies: JS_BODIES,
    declarations: JS_DECLARATIONS,
    namedDeclarations: JS_NAMED_DECLARATIONS,
  },
};
