/**
 * The label of an answer built from syntax trees where no server could have built it. A
 * grammar-only language (no server configured) has catalog entries from tree-sitter only: a
 * definition "found" among equal declarations, an outline, a dead-code list are name matches, not
 * a compiler's resolution, and the answer must say so — in `_meta.index_state: syntax` and, through
 * it, in the notice that heads the markdown. Decided after the handler ran, from what it recorded:
 *   - any file the answer was built from (`sourceFiles`) is cataloged at the syntax tier and no
 *     enabled server handles it;
 *   - or the answer read no single file and the workspace's every cataloged file is such a file (a
 *     repository outline, a dead-code scan, a listing of a grammar-only workspace).
 * A file still waiting for its server is not labeled here: the catalog's own early-answer rule
 * (reportCatalog) says `syntax` for those while it lasts.
 */
import { languageProfile } from '../adapters/languages.js';
import { entryFor } from '../broker/route.js';
import type { ServerEntry } from '../config/schema.js';
import type { CallMeta } from '../core/call-meta.js';
import type { Catalog } from '../core/catalog.js';
import { isInside, toRelative } from '../util/paths.js';

export interface LabelInput {
  root: string;
  catalog: Catalog;
  servers: readonly ServerEntry[];
  /** Absolute paths of the files the answer was built from. */
  sourceFiles: Iterable<string>;
}

/** Languages of the syntax-only files among `rels` (empty: none). */
function syntaxOnlyLanguages(input: LabelInput, rels: Iterable<string>): Set<string> {
  const files = input.catalog.files();
  const langs = new Set<string>();
  for (const rel of rels) {
    const e = files.get(rel);
    if (e?.tier === 'syntax' && entryFor(input.servers as ServerEntry[], rel) === undefined) langs.add(e.language);
  }
  return langs;
}

export function labelSyntaxAnswer(input: LabelInput, meta: CallMeta): void {
  const files = input.catalog.files();
  if (files.size === 0) return;
  const read = [...input.sourceFiles].filter((abs) => isInside(input.root, abs)).map((abs) => toRelative(input.root, abs));
  let langs = syntaxOnlyLanguages(input, read);
  if (langs.size === 0 && read.length === 0) {
    const every = [...files].every(([rel, e]) => e.tier === 'syntax' && entryFor(input.servers as ServerEntry[], rel) === undefined);
    if (every) langs = syntaxOnlyLanguages(input, files.keys());
  }
  if (langs.size === 0) return;
  meta.setIndexState('syntax');
  meta.warn(
    `built from syntax trees (tree-sitter) for ${[...langs].sort().join(', ')}: no language server runs for them here, ` +
      "so names are matched by their declarations, not resolved by a compiler; install the language's server for semantic answers" +
      [...langs]
        .sort()
        .map((l) => languageProfile(l)?.server)
        .filter((s): s is { name: string; install: string } => !!s)
        .map((s) => ` (${s.name}: ${s.install})`)
        .join(''),
  );
}
