/**
 * find_dead_code: top-level functions, classes and the methods of top-level types that no server
 * finds a reference to outside their own declaration (textDocument/references; uses inside the
 * symbol's own body — recursion — do not keep it alive). Zero-reference symbols that something
 * outside the code calls are reported in their own categories, not as dead: entry points (`main`,
 * Go's `init`), tests, framework hooks (dunders and PHP magic methods, decorated or attributed
 * declarations such as Flask routes and Laravel `#[Scope]`), and a library's exported API (by the
 * workspace's manifests) — each language's rules in its profile (src/adapters/<lang>/profile.ts).
 * A method overriding a workspace method that something references is not dead (the call
 * dispatches to it). A file the server cannot answer for is skipped, not the whole report.
 */
import type { ManifestReader } from '../../adapters/language-profile.js';
import { profileOf } from '../../adapters/languages.js';
import { isTestFunctionName, isTestPath } from '../../adapters/test-files.js';
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';
import { CATEGORIES } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import { LineSource } from '../../service/locations.js';
import { decorationOf } from '../../service/structure-index.js';
import { manifestBound, manifestReader } from '../manifests.js';
import { addCatalogErrors, perFile, type SkippedFile, skipsOf } from '../skips.js';
import { checkedDeclarations, outsideReferences } from './declarations.js';
import { BaseMethods } from './overrides.js';

export { CATEGORIES };
export type Category = (typeof CATEGORIES)[number];

export interface DeadCodeCandidate extends SymbolRef {
  category: Category;
  /** Why it is listed, and why in this category. */
  reason: string;
}

export interface DeadCodeResult {
  /** Declarations checked (answered or skipped). */
  scanned: number;
  candidates: DeadCodeCandidate[];
  /** Declarations over max_symbols, not checked. */
  unchecked: number;
  /** Files whose declarations could not be checked, with the server's failure. */
  skipped: SkippedFile[];
}

export async function findDeadCode(call: ServiceCall, maxSymbols: number): Promise<DeadCodeResult> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const all = catalog.all ? await catalog.all() : [];
  const eligible = checkedDeclarations(all);
  const scan = eligible.slice(0, maxSymbols);
  const manifests = manifestReader(call.root, manifestBound(call));
  const skips = skipsOf(call);
  addCatalogErrors(skips, catalog.status().errors);
  const byId = new Map(all.map((s) => [s.symbol_id, s]));
  const bases = new BaseMethods(call, (id) => byId.get(id));
  const out: DeadCodeCandidate[] = [];
  const src = new LineSource(call);
  let answered = 0;
  for (const s of scan) {
    // One failure of a file (gopls: no package metadata) is every declaration's of that file.
    if (skips.has(s.file)) continue;
    const found = await perFile(skips, s.file, () => unreferenced(call, src, s, bases));
    if (found === undefined) continue;
    answered++;
    if (found === false) continue;
    const [category, why] = classify(s, await registeringMarker(call, s), manifests);
    out.push({
      symbol_id: s.symbol_id,
      name: s.name,
      qualified_name: s.qualified_name,
      kind: s.kind,
      file: s.file,
      line: s.selection_line,
      category,
      reason: `no reference outside its declaration${found.note}; ${why}`,
    });
  }
  const order = new Map(CATEGORIES.map((c, i) => [c, i]));
  out.sort((a, b) => order.get(a.category)! - order.get(b.category)! || a.file.localeCompare(b.file) || a.line - b.line);
  return {
    scanned: scan.length,
    candidates: out,
    unchecked: eligible.length - scan.length,
    skipped: skips.finish(call.meta, 'find_dead_code', scan.length ? answered : 1),
  };
}

/**
 * false when something references the declaration; else what was observed beyond "no reference"
 * (an override whose bases nothing references either). An override of a workspace method that is
 * referenced is alive: a call through the base dispatches to it.
 */
async function unreferenced(call: ServiceCall, src: LineSource, s: CatalogSymbol, bases: BaseMethods): Promise<false | { note: string }> {
  if ((await outsideReferences(call, src, s)).length) return false;
  const overridden = await bases.overridden(s);
  for (const b of overridden) if ((await outsideReferences(call, src, b)).length) return false;
  return { note: overridden.length ? ` (it overrides ${overridden.map((b) => b.qualified_name).join(', ')}, which nothing references either)` : '' };
}

/**
 * The declaration's first decorator or attribute (read from its parse tree) that may do something
 * with it: decorators the profile says only bind or type it (`@staticmethod`) register it nowhere.
 */
async function registeringMarker(call: ServiceCall, s: CatalogSymbol): Promise<string | undefined> {
  const decoration = await decorationOf(call.workspace, s, (await call.file(call.resolvePath(s.file))).text, {
    bounds: call.env.limits,
    signal: call.signal,
    unread: (m) => call.meta.warn(m),
  });
  const bindsOnly = profileOf(s.file, s.language)?.deadCode.bindsOnly;
  return decoration?.decorators.find((d) => !bindsOnly?.(d.name))?.name;
}

/** `marker`: see registeringMarker. A reason names only what was observed. */
function classify(s: CatalogSymbol, marker: string | undefined, manifests: ManifestReader): [Category, string] {
  const profile = profileOf(s.file, s.language);
  if (isTestPath(s.file, s.language) || isTestFunctionName(s.name, profile)) return ['test', 'a test (its runner calls it)'];
  if (!s.parent && (profile?.deadCode.entryPoints ?? ['main']).includes(s.name)) return ['entry_point', `\`${s.name}\` is called by the runtime`];
  if (profile?.deadCode.languageHooks?.test(s.name)) return ['framework_hook', 'a dunder / magic method the language calls'];
  if (marker)
    return [
      'framework_hook',
      `it is decorated with \`${marker}\`, and what a decorator or attribute does with it (calls it, registers it) is not visible to references`,
    ];
  const api = profile?.deadCode.exportedApi?.(s, manifests);
  if (api) return ['exported_api', `exported API of a library (${api}): callers may live outside the workspace`];
  return ['dead', 'nothing in the workspace references it'];
}
