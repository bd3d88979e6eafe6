// The language profiles decide structure only through syntax hooks (tree-sitter queries and the
// code that reads their captures): no profile holds a regex except rules over file names, function
// names and method names, and every function a profile holds is known here with what it reads —
// a new hook over source text (`baseNames(header)`, a leading-line regex) fails this test.
import { describe, expect, it } from 'vitest';

import { languageProfiles } from '../../src/adapters/languages.js';

/** Dotted paths of every value of `kind` in an object graph (array indexes as `*`). */
function paths(value: unknown, kind: (v: unknown) => boolean, at = ''): string[] {
  if (kind(value)) return [at];
  if (value === null || typeof value !== 'object' || value instanceof RegExp) return [];
  return Object.entries(value).flatMap(([k, v]) => paths(v, kind, at ? `${at}.${Array.isArray(value) ? '*' : k}` : k));
}

/** What each function a profile may hold reads: a parse tree's nodes, names, paths, manifests — or source lines. */
const FUNCTIONS: Record<string, 'tree' | 'names' | 'paths' | 'manifests' | 'docstring lines' | 'server messages'> = {
  'syntax.imports.read': 'tree',
  'syntax.imports.isPackageModule': 'paths',
  'syntax.imports.isModuleNamed': 'paths',
  'syntax.imports.submoduleFiles': 'names',
  'syntax.namedDeclarations.read': 'tree',
  'syntax.patterns.hit': 'tree',
  'syntax.typeHeaders.read': 'tree',
  'syntax.decorations.read': 'tree',
  'syntax.docComments.isDoc': 'tree',
  'syntax.aliases.full': 'tree',
  // the syntax catalog: the declarations a server would list, from the tree; the package from the path and the tree
  'syntax.declarations.read': 'tree',
  'syntax.declarations.packageOf': 'paths',
  'declarations.isPrivate': 'names',
  'declarations.holdsMembers': 'names',
  'declarations.elementType': 'names',
  // a Python docstring's text, from the lines of a declaration the server delimited: the one reader
  // of source lines left in a profile (what the catalog shows as a docstring; no structure decided)
  'declarations.bodyDocstring': 'docstring lines',
  'deadCode.exportedApi': 'manifests',
  'deadCode.bindsOnly': 'names',
  'project.manifestPackages': 'manifests',
  'project.catalogPackages': 'names',
  'project.manifestEntryPoints': 'manifests',
  // the module a workspace declares, from its manifest (go.mod)
  'project.modulePath': 'manifests',
  // a module specifier's candidate files (`./a` → `./a.ts`, `./a/index.ts`): paths
  'project.moduleFile': 'paths',
  // the folders a server loads, from its project config (pyrightconfig.json, [tool.pyright])
  'project.serverScope': 'manifests',
  // why a server answers nothing for a file: its error message, and the build-constraint line quoted in the reason
  'project.noProjectReason': 'server messages',
};

// library locations are rules over file paths (a GOROOT source tree, a Python lib directory)
const REGEXES = new Set(['tests.runners.*.files', 'tests.functionNames', 'deadCode.languageHooks', 'project.libraries.patterns.*']);

describe.each(languageProfiles().map((p) => [p.name, p] as const))('profile %s', (_name, profile) => {
  it('holds regexes only over file, function and method names', () => {
    expect(paths(profile, (v) => v instanceof RegExp).filter((p) => !REGEXES.has(p))).toEqual([]);
  });

  it('holds only functions whose input is known: trees, names, paths, manifests', () => {
    expect(paths(profile, (v) => typeof v === 'function').filter((p) => !(p in FUNCTIONS))).toEqual([]);
  });
});
