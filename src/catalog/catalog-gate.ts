/** The gate every file passes to enter a catalog (file-gate.ts), for the walk's options now. */
import type { CatalogWalkOptions, FileCataloger } from '../core/catalog.js';
import { FileGate } from './file-gate.js';

export function catalogGate(root: string, cataloger: FileCataloger, maxFileBytes: number, options: CatalogWalkOptions, extensions: Set<string>): FileGate {
  const syntax = cataloger.syntax;
  const isScript = syntax?.isScript ? (head: Buffer) => syntax.isScript!(head) : undefined;
  const manifests = cataloger.projectManifests?.();
  return new FileGate(root, {
    extensions,
    extraIgnore: options.extraIgnore ?? [],
    ...(manifests ? { manifests } : {}),
    followSymlinks: !!options.followSymlinks,
    maxFileBytes,
    skipMinified: true,
    ...(isScript ? { isScript } : {}),
  });
}
