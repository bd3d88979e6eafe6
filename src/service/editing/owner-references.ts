/**
 * A method whose signature changes breaks more than its callers: where its type stands for an
 * interface, the type may no longer satisfy it (Go: a `*Comment` case in a type switch over
 * `ast.Node` once `Comment.Pos` takes a parameter; TypeScript: a class assigned to an interface;
 * PHP: a class implementing a changed interface method). Those files spell the type, not the
 * method: the delta covers the files referencing the method's type as well, after its callers.
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../call.js';
import { findReferences, type ReferenceEntry } from '../navigation/references.js';

/** Kinds that hold methods and can stand for an interface (or be one). */
const OWNER_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'type', 'enum']);

/** References of the type declaring `method` (none when it is not a method of one); a failed search is a warning and none. */
export async function ownerReferences(call: ServiceCall, method: CatalogSymbol): Promise<ReferenceEntry[]> {
  if (method.kind !== 'method') return [];
  const owner = await ownerOf(call, method);
  if (!owner) return [];
  try {
    return (await findReferences(call, { symbol_id: owner.symbol_id, include_declaration: false, max_results: 500 })).references;
  } catch (e) {
    call.meta.warn(
      `the files using ${owner.qualified_name}, which ${method.qualified_name}'s new signature may stop fitting an interface, were not checked: ${(e as Error).message}`,
    );
    return [];
  }
}

/**
 * The type declaring `method`: its catalog parent, else (a Go method is declared beside its type, not
 * in it) the type its qualified name starts with, in the same file or else the same folder (package).
 */
async function ownerOf(call: ServiceCall, method: CatalogSymbol): Promise<CatalogSymbol | undefined> {
  const catalog = call.workspace.catalog;
  if (method.parent) {
    const parent = await catalog.byId(method.parent);
    return parent && OWNER_KINDS.has(parent.kind) ? parent : undefined;
  }
  const dot = method.qualified_name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const name = method.qualified_name.slice(0, dot);
  const hits = (await catalog.lookup(name, { language: method.language, kind: [...OWNER_KINDS] })).filter((s) => s.qualified_name === name);
  const dir = (f: string) => f.slice(0, f.lastIndexOf('/') + 1);
  return hits.find((s) => s.file === method.file) ?? hits.find((s) => dir(s.file) === dir(method.file));
}

/** `first`'s files (sorted), then `more`'s not among them (sorted), leaving out `own` and external ones: the cap cuts the latter first. */
export function referencingOrder(own: string, first: ReferenceEntry[], more: ReferenceEntry[]): string[] {
  const files = (refs: ReferenceEntry[]) => [...new Set(refs.filter((r) => !r.external && r.file !== own).map((r) => r.file))].sort();
  const head = files(first);
  return [...head, ...files(more).filter((f) => !head.includes(f))];
}
