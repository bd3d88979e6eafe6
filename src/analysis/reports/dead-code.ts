/**
 * find_dead_code: top-level functions, classes and the methods of top-level types that no server
 * finds a reference to outside their own declaration (textDocument/references; uses inside the
 * symbol's own body — recursion — do not keep it alive). Zero-reference symbols that something
 * outside the code calls are reported in their own categories, not as dead: entry points (`main`,
 * Go's `init`), tests, framework hooks (dunders and PHP magic methods, decorated or attributed
 * declarations such as Flask routes and Laravel `#[Scope]`), and a library's exported API (by the
 * workspace's manifests) — each language's rules in its profile (src/adapters/<lang>/profile.ts).
 */
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { LineSource } from '../../service/locations.js';
import { decorationOf } from '../../service/structure-index.js';
import { checkedDeclarations, outsideReferences } from './declarations.js';
import type { ManifestReader } from '../../adapters/language-profile.js';
import { profileOf } from '../../adapters/languages.js';
import { isTestFunctionName, isTestPath } from '../../adapters/test-files.js';
import { manifestBound, manifestReader } from '../manifests.js';

export const CATEGORIES = ['dead', 'entry_point', 'test', 'framework_hook', 'exported_api'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface DeadCodeCandidate extends SymbolRef {
  category: Category;
  /** Why it is listed, and why in this category. */
  reason: string;
}

export async function findDeadCode(call: ServiceCall, maxSymbols: number): Promise<{ scanned: number; candidates: DeadCodeCandidate[]; skipped: number }> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const all = catalog.all ? await catalog.all() : [];
  const eligible = checkedDeclarations(all);
  const scan = eligible.slice(0, maxSymbols);
  const manifests = manifestReader(call.root, manifestBound(call));
  const out: DeadCodeCandidate[] = [];
  const src = new LineSource(call);
  for (const s of scan) {
    if ((await outsideReferences(call, src, s)).length) continue;
    const decoration = await decorationOf(call.workspace, s, (await call.file(call.resolvePath(s.file))).text);
    const [category, why] = classify(s, decoration?.decorators[0]?.name, manifests);
    out.push({ symbol_id: s.symbol_id, name: s.name, qualified_name: s.qualified_name, kind: s.kind, file: s.file, line: s.selection_line, category, reason: `no reference outside its declaration; ${why}` });
  }
  const order = new Map(CATEGORIES.map((c, i) => [c, i]));
  out.sort((a, b) => order.get(a.category)! - order.get(b.category)! || a.file.localeCompare(b.file) || a.line - b.line);
  return { scanned: scan.length, candidates: out, skipped: eligible.length - scan.length };
}

/** `marker`: the declaration's first decorator or attribute (read from its parse tree). */
function classify(s: CatalogSymbol, marker: string | undefined, manifests: ManifestReader): [Category, string] {
  const profile = profileOf(s.file, s.language);
  if (isTestPath(s.file, s.language) || isTestFunctionName(s.name, profile)) return ['test', 'a test (its runner calls it)'];
  if (!s.parent && (profile?.deadCode.entryPoints ?? ['main']).includes(s.name)) return ['entry_point', `\`${s.name}\` is called by the runtime`];
  if (profile?.deadCode.languageHooks?.test(s.name)) return ['framework_hook', 'a dunder / magic method the language calls'];
  if (marker) return ['framework_hook', `registered by \`${marker}\` (a decorator or attribute calls or registers it)`];
  const api = profile?.deadCode.exportedApi?.(s, manifests);
  if (api) return ['exported_api', `exported API of a library (${api}): callers may live outside the workspace`];
  return ['dead', 'nothing calls it'];
}

