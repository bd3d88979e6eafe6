/**
 * `refresh` of named files: each one is cataloged again through the gate (catalog-files.ts), or
 * leaves the catalog when it is gone; a file no server catalogs is parsed again by the syntax tier.
 * Every file answers on its own: one that fails is listed with its code, the others still refresh.
 */
import { stat } from 'node:fs/promises';

import type { CatalogFileError, CatalogStatus } from '../core/catalog.js';
import { toLspgateError } from '../errors/errors.js';
import { resolveInWorkspace, toRelative } from '../util/paths.js';
import type { CatalogFiles } from './catalog-files.js';
import type { SymbolIndex } from './symbol-index.js';
import type { SyntaxEntries } from './syntax-tier.js';

export async function refreshPaths(
  root: string,
  files: CatalogFiles,
  syntax: SyntaxEntries,
  relPaths: string[],
): Promise<{ refreshed: string[]; errors: CatalogFileError[] }> {
  const refreshed: string[] = [];
  const errors: CatalogFileError[] = [];
  for (const p of relPaths) {
    let rel = p;
    try {
      const abs = resolveInWorkspace(root, p, { mustExist: false });
      rel = toRelative(root, abs);
      const exists = await stat(abs).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!exists) files.removeFile(rel);
      else await (syntax.catalogs(rel) ? syntax.early(abs, rel) : files.catalogFile(abs, rel));
      refreshed.push(rel);
    } catch (e) {
      const err = toLspgateError(e);
      errors.push({ file: rel, code: err.code, message: err.message });
    }
  }
  return { refreshed, errors };
}

/** `refresh` of every file: a build, and the files whose hash it changed (or that it removed). */
export async function refreshAll(index: SymbolIndex, build: () => Promise<CatalogStatus>): Promise<{ refreshed: string[]; errors: CatalogFileError[] }> {
  const refreshed: string[] = [];
  const before = new Map([...index.files].map(([rel, e]) => [rel, e.hash]));
  const status = await build();
  for (const [rel, e] of index.files) if (before.get(rel) !== e.hash) refreshed.push(rel);
  for (const rel of before.keys()) if (!index.files.has(rel)) refreshed.push(rel);
  return { refreshed: refreshed.sort(), errors: status.errors };
}
