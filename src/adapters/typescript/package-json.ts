/**
 * What a package.json says about a TypeScript/JavaScript workspace: its npm package, the files it
 * runs or exports (`main`, `bin`, `exports`), and whether it is a library whose exported symbols are
 * API (not `private`, with `exports` or `main`).
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ManifestReader, ProjectRules } from '../language-profile.js';
import { manifestFiles } from '../manifest-files.js';
import { tsModuleFile } from './module-path.js';

/** One object for both languages: project_context reports the package once. */
export const NODE_PROJECT: ProjectRules = {
  packageKinds: ['npm'],
  manifests: ['package.json', 'tsconfig.json'],
  libraries: { segments: ['node_modules'] },
  moduleFile: tsModuleFile,
  manifestPackages(m) {
    const pkg = m.json('package.json');
    return typeof pkg?.name === 'string' ? [{ name: pkg.name, kind: 'npm', path: 'package.json' }] : [];
  },
  manifestEntryPoints(m) {
    const pkg = m.json('package.json');
    return [
      ...manifestFiles('package.json main', pkg?.main),
      ...manifestFiles('package.json bin', pkg?.bin),
      ...manifestFiles('package.json exports', pkg?.exports),
    ];
  },
};

export function nodeExportedApi(s: CatalogSymbol, m: ManifestReader): string | undefined {
  const pkg = m.json('package.json');
  const lib = pkg && pkg.private !== true && (pkg.exports !== undefined || pkg.main !== undefined);
  if (!lib) return undefined;
  return /^\s*export\b/.test(s.signature) ? 'package.json exports' : s.parent ? 'a member of an exported type' : undefined;
}
