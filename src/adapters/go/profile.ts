/** The Go language profile (language-profile.ts), served by the go adapter (gopls). */
import path from 'node:path';

import type { LanguageProfile, ProjectPackage } from '../language-profile.js';
import { GO_DECLARATIONS } from './declarations.js';
import { goNoPackageReason } from './no-package.js';
import { GO_BODIES, GO_DECORATIONS, GO_NAMED_DECLARATIONS, GO_TYPE_HEADERS } from './structure.js';
import { GO_COMPLEXITY, GO_IMPORTS, GO_PATTERNS } from './syntax.js';
import { GO_TEST_RUNNER, isGoTestFile } from './tests.js';

function goModule(text: string | undefined): string | undefined {
  return /^module\s+(\S+)/m.exec(text ?? '')?.[1];
}

export const goProfile: LanguageProfile = {
  name: 'go',
  languageIds: [],
  grammars: { '.go': 'go' },
  syntax: {
    imports: GO_IMPORTS,
    patterns: GO_PATTERNS,
    complexity: GO_COMPLEXITY,
    typeHeaders: GO_TYPE_HEADERS,
    decorations: GO_DECORATIONS,
    bodies: GO_BODIES,
    declarations: GO_DECLARATIONS,
    namedDeclarations: GO_NAMED_DECLARATIONS,
  },
  tests: {
    runners: [GO_TEST_RUNNER],
    // testdata: the go tool ignores it (test inputs); test/: external test programs and their helpers
    // (GOROOT's test/, the common layout's /test), not a package's source.
    directories: ['test', 'tests', 'testdata', 'fixtures'],
    // `go test` runs TestXxx, BenchmarkXxx, ExampleXxx and FuzzXxx, Xxx not starting with a lower-case letter.
    functionNames: /^(Test|Benchmark|Example|Fuzz)($|[^a-z])/,
  },
  // A comment line right above a declaration is part of its doc comment; go/doc and gofmt leave
  // `//name:arg` directives out of doc text (Go 1.19 doc comment rules), so a tag is one.
  comments: { line: '//', tag: '//lspgate:tag ', trailingDoc: true },
  declarations: {
    // Go's rule: a name is exported when it starts with an upper-case letter.
    isPrivate: (s) => !/^[A-Z]/.test(s.name),
  },
  types: {
    implicitInterfaces: true,
    // gopls 0.22 (not 0.16) answers the type-hierarchy requests, but only with interface
    // satisfaction (fixtures/knowledge-go): a struct embedding another is neither's super- nor
    // subtype there, and every struct comes back as a class.
    serverHierarchyPartial: 'it lists only interface satisfaction, no embedded types, and names every struct a class',
  },
  deadCode: {
    entryPoints: ['main', 'init'],
    exportedApi(s) {
      const pkgPath = path.posix.dirname(s.file);
      if (/^[A-Z]/.test(s.name) && s.package !== 'main' && !/(^|\/)internal(\/|$)/.test(pkgPath)) return `exported from package ${s.package ?? pkgPath}`;
      return undefined;
    },
  },
  project: {
    noProjectReason: goNoPackageReason,
    packageKinds: ['go-module', 'go-package'],
    manifests: ['go.mod'],
    // GOROOT/src (also a distribution's /usr/lib/go-1.26/src, a link to /usr/share/go-1.26/src), the module cache and a module's vendor/
    libraries: { segments: ['vendor'], patterns: [/\/go(?:-[\d.]+)?\/src\//, /\/pkg\/mod\//], environment: ['GOROOT'] },
    modulePath: (m) => goModule(m.text('go.mod')),
    manifestPackages(m) {
      const mod = goModule(m.text('go.mod'));
      return mod ? [{ name: mod, kind: 'go-module', path: 'go.mod' }] : [];
    },
    catalogPackages(symbols, _files, m) {
      const mod = goModule(m.text('go.mod'));
      const dirs = new Map<string, string>();
      for (const s of symbols) {
        const dir = path.posix.dirname(s.file);
        // a _test.go file may declare the external test package `x_test`
        if (s.package && !dirs.has(dir) && !isGoTestFile(s.file)) dirs.set(dir, s.package);
      }
      return [...dirs]
        .sort()
        .map(([dir, name]): ProjectPackage => ({ name: mod ? (dir === '.' ? mod : `${mod}/${dir}`) : name, kind: 'go-package', path: dir }));
    },
  },
  chunks: { elision: '{ … }' },
};
