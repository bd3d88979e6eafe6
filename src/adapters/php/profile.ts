/** The PHP language profile (language-profile.ts), served by the php adapter (intelephense). */
import path from 'node:path';

import type { LanguageProfile, ProjectPackage } from '../language-profile.js';
import { manifestFiles } from '../manifest-files.js';
import { PHP_DECLARATIONS } from './declarations.js';
import { PHP_ALIASES, PHP_BODIES, PHP_DECORATIONS, PHP_DOC_COMMENTS, PHP_NAMED_DECLARATIONS, PHP_TYPE_HEADERS } from './structure.js';
import { PHP_COMPLEXITY, PHP_IMPORTS, PHP_PATTERNS } from './syntax.js';

/** Methods PHP calls itself. */
const MAGIC_METHODS =
  /^__(construct|destruct|call|callStatic|get|set|isset|unset|sleep|wakeup|serialize|unserialize|toString|invoke|set_state|clone|debugInfo)$/;

export const phpProfile: LanguageProfile = {
  name: 'php',
  languageIds: [],
  grammars: { '.php': 'php' },
  interpreters: { php: '.php' },
  syntax: {
    imports: PHP_IMPORTS,
    patterns: PHP_PATTERNS,
    complexity: PHP_COMPLEXITY,
    typeHeaders: PHP_TYPE_HEADERS,
    aliases: PHP_ALIASES,
    decorations: PHP_DECORATIONS,
    bodies: PHP_BODIES,
    docComments: PHP_DOC_COMMENTS,
    declarations: PHP_DECLARATIONS,
    namedDeclarations: PHP_NAMED_DECLARATIONS,
  },
  tests: {
    // PHPUnit's default suffix, case-sensitive (`Latest.php` is not a test).
    runners: [{ runner: 'phpunit', description: "PHPUnit's *Test.php suffix", files: /.Test\.php$/ }],
    // PHPUnit's tests/ (Symfony components: Tests/), phpspec's spec/, and test inputs
    directories: ['test', 'tests', 'spec', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  comments: { line: '//' },
  declarations: {},
  types: {},
  deadCode: {
    entryPoints: ['main'],
    languageHooks: MAGIC_METHODS,
    exportedApi: (s, m) =>
      m.json('composer.json')?.type === 'library' && !/\b(private|protected)\b/.test(s.signature) ? 'composer.json type library' : undefined,
  },
  project: {
    packageKinds: ['composer', 'php-namespace'],
    manifests: ['composer.json'],
    libraries: { segments: ['vendor'] },
    manifestPackages(m) {
      const composer = m.json('composer.json');
      return typeof composer?.name === 'string' ? [{ name: composer.name, kind: 'composer', path: 'composer.json' }] : [];
    },
    catalogPackages(symbols) {
      const namespaces = new Map<string, string>();
      for (const s of symbols) if (s.namespace && !namespaces.has(s.namespace)) namespaces.set(s.namespace, path.posix.dirname(s.file));
      return [...namespaces].sort().map(([ns, dir]): ProjectPackage => ({ name: ns, kind: 'php-namespace', path: dir }));
    },
    manifestEntryPoints(m) {
      return manifestFiles('composer.json bin', m.json('composer.json')?.bin);
    },
  },
  chunks: { elision: '{ … }' },
};
