/**
 * How a name becomes one declaration, as a developer would pick it.
 * Candidates are ranked, in this order, by
 *   (a) kind fit with the operation (find_type_definition wants types, find_callers callables),
 *   (b) scope: module-level before class members before locals (symbols nested in function
 *       bodies, callbacks, variable initialisers; parameters),
 *   (c) role of the file: source before tests, examples, docs, benchmarks (adapters/test-files),
 *   (d) exact case of the name.
 * One candidate strictly ahead on that key is the answer (the others go to `_meta.alternatives`);
 * leaders with equal keys are a real tie (AMBIGUOUS_SYMBOL, candidates ranked), unless they are
 * the merged declarations of one TypeScript symbol. `strict` never picks. Candidates with equal
 * keys are ordered by visibility as written (exported and public first, then declarations their
 * module keeps to itself, then private / protected / `_name` members), then file and line: the
 * order never decides, it is the order a tie is shown in.
 * Pure: the caller supplies the parent lookup.
 */
import { languageProfile, profileOf } from '../../adapters/languages.js';
import { type PathRole, pathRole } from '../../adapters/test-files.js';
import { textHash } from '../../catalog/symbol-search.js';
import type { SymbolAlternative } from '../../core/call-meta.js';
import type { CatalogSymbol, PolicyKey, SymbolRanker } from '../../core/catalog.js';

/** What kinds an operation is about. */
export type KindFit = 'any' | 'callable' | 'type';
export type Scope = 'module' | 'member' | 'local';

/** Kinds that hold members without making them locals. */
const MEMBER_HOLDERS = new Set(['class', 'interface', 'trait', 'struct', 'enum', 'type']);
/** Kinds that are only a place in the module tree: what they hold is still module-level. */
const TRANSPARENT = new Set(['namespace', 'module', 'package', 'file']);
const CALLABLE = new Set(['function', 'method', 'constructor']);
/** Kinds that are members wherever the server lists them (gopls lists methods at the top level). */
const MEMBER_KINDS = new Set(['method', 'constructor', 'field', 'property', 'enum_member']);
const CORE_TYPES = new Set(['class', 'interface', 'trait', 'struct', 'type', 'enum']);

const SCOPE_RANK: Record<Scope, number> = { module: 0, member: 1, local: 2 };
const ROLE_RANK: Record<PathRole, number> = { source: 0, test: 1, example: 1, doc: 1, bench: 1 };

export interface RankedCandidate {
  symbol: CatalogSymbol;
  scope: Scope;
  role: PathRole;
  /** Lexicographic: [kind fit, scope, role, case]; lower is better. */
  key: number[];
  /** Among equal keys: 0 exported / public, 1 kept to its module, 2 private / protected / `_name`. */
  visibility: number;
}

export type ParentOf = (symbolId: string) => CatalogSymbol | undefined;

export function kindFit(kind: string, fit: KindFit): number {
  if (fit === 'callable') return CALLABLE.has(kind) ? 0 : 1;
  // namespace and module pass the type operations' kind filter (a PHP namespace, a TS namespace),
  // but an import binding pyright reports as a module is not the type a caller means.
  if (fit === 'type') return CORE_TYPES.has(kind) ? 0 : 1;
  return 0;
}

/** Module-level unless an enclosing symbol is a class-like (member) or anything else (local). */
export function scopeOf(sym: CatalogSymbol, parentOf: ParentOf): Scope {
  let scope: Scope = 'module';
  const seen = new Set<string>();
  for (let id = sym.parent; id !== undefined && !seen.has(id);) {
    seen.add(id);
    const p = parentOf(id);
    if (!p) break;
    if (MEMBER_HOLDERS.has(p.kind) || profileOf(p.file, p.language)?.declarations.holdsMembers?.(p)) scope = 'member';
    else if (!TRANSPARENT.has(p.kind)) return 'local';
    id = p.parent;
  }
  return scope === 'module' && MEMBER_KINDS.has(sym.kind) ? 'member' : scope;
}

/** The last segment asked for, kept for the next call: a search ranks every hit against one name. */
let lastAsked: { name: string; segment: string } | undefined;

function lastSegment(name: string): string {
  if (lastAsked?.name === name) return lastAsked.segment;
  const segment =
    name
      .split(/::|\\|\.|\/|->/)
      .filter(Boolean)
      .pop() ?? name;
  lastAsked = { name, segment };
  return segment;
}

export function rankCandidate(sym: CatalogSymbol, asked: string, fit: KindFit, parentOf: ParentOf): RankedCandidate {
  const scope = scopeOf(sym, parentOf);
  const role = pathRole(sym.file, sym.language);
  const exactCase = sym.name === lastSegment(asked) ? 0 : 1;
  return { symbol: sym, scope, role, key: [kindFit(sym.kind, fit), SCOPE_RANK[scope], ROLE_RANK[role], exactCase], visibility: visibilityOf(sym, parentOf) };
}

const PRIVATE_MODIFIER = /^\s*(?:(?:public|static|readonly|abstract|final|async|override|export|declare)\s+)*(private|protected)\b/;

/** A name the language itself marks private: by its profile's rule (Go: lower-case), else `_x` (not a dunder) or `#x`. */
function privateName(s: CatalogSymbol): boolean {
  const own = profileOf(s.file, s.language)?.declarations.isPrivate;
  if (own) return own(s);
  return s.name.startsWith('#') || (s.name.startsWith('_') && !/^__\w+__$/.test(s.name));
}

/** Whether a signature starts with the word `keyword`. */
function startsWithWord(signature: string, keyword: string): boolean {
  const text = signature.trimStart();
  return text.startsWith(keyword) && !/[\w$]/.test(text.charAt(keyword.length));
}

/**
 * Visibility as the source writes it: 2 for a private or protected member (modifier or naming
 * rule), 0 when the declaration and its outermost container are public to importers (the profile's
 * export keyword where it has one, TS/JS `export`; a Python or Go name not marked private, PHP and
 * every other language: public), else 1.
 */
export function visibilityOf(sym: CatalogSymbol, parentOf: ParentOf): number {
  if (privateName(sym) || PRIVATE_MODIFIER.test(sym.signature)) return 2;
  let top = sym;
  const seen = new Set<string>();
  for (let id = sym.parent; id !== undefined && !seen.has(id);) {
    seen.add(id);
    const p = parentOf(id);
    if (!p) break;
    top = p;
    id = p.parent;
  }
  if (top !== sym && privateName(top)) return 1;
  const keyword = profileOf(top.file, top.language)?.declarations.exportKeyword;
  if (keyword) return startsWithWord(top.signature, keyword) ? 0 : 1;
  return 0;
}

export function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Best first; equal keys by visibility, then file and line order so answers are stable. */
export function rankCandidates(list: CatalogSymbol[], asked: string, fit: KindFit, parentOf: ParentOf): RankedCandidate[] {
  return list
    .map((s) => rankCandidate(s, asked, fit, parentOf))
    .sort((a, b) => compareKeys(a.key, b.key) || a.visibility - b.visibility || a.symbol.file.localeCompare(b.symbol.file) || a.symbol.line - b.symbol.line);
}

export type Resolution = { kind: 'chosen'; chosen: RankedCandidate; alternatives: RankedCandidate[] } | { kind: 'tie'; ranked: RankedCandidate[] };

/**
 * Declaration merging (TypeScript's): an `interface X` and a `const X` (or a class and a namespace)
 * of one module are one symbol to the compiler (definition on either lists both), so leaders that are
 * all such declarations of one file and one qualified name are not a choice between symbols.
 */
function oneMergedSymbol(leaders: RankedCandidate[]): boolean {
  const [a] = leaders;
  if (!a || !languageProfile(a.symbol.language)?.declarations.mergesDeclarations) return false;
  const kinds = new Set(leaders.map((c) => c.symbol.kind));
  return kinds.size === leaders.length && leaders.every((c) => c.symbol.file === a.symbol.file && c.symbol.qualified_name === a.symbol.qualified_name);
}

/** A strict leader, or a tie (always a tie under `strict` when there are several). */
export function choose(ranked: RankedCandidate[], strict: boolean): Resolution {
  const [first, second] = ranked;
  if (first && !second) return { kind: 'chosen', chosen: first, alternatives: [] };
  if (strict || !first || !second) return { kind: 'tie', ranked };
  if (compareKeys(first.key, second.key) < 0) return { kind: 'chosen', chosen: first, alternatives: ranked.slice(1) };
  const leaders = ranked.filter((c) => compareKeys(c.key, first.key) === 0);
  // Equal keys keep line order: the first declaration of the merged symbol is answered.
  if (oneMergedSymbol(leaders)) return { kind: 'chosen', chosen: first, alternatives: ranked.slice(1) };
  return { kind: 'tie', ranked };
}

export function alternativeOf(c: RankedCandidate): SymbolAlternative {
  return { symbol_id: c.symbol.symbol_id, kind: c.symbol.kind, file: c.symbol.file, line: c.symbol.selection_line, scope: c.scope, role: c.role };
}

/**
 * The one order of a name's declarations, shared by name resolution (find_definition, get_context,
 * every operation taking a name) and search_symbols: scope, then file role, then exact case, then
 * visibility as written (rankCandidates: after kind fit; search_symbols: after the text tier, which
 * puts the name's declarations — in any case — before partial matches). find_definition `render`
 * and search_symbols `render` ranked the same five declarations in two orders (search: role before
 * scope, no visibility).
 */
export function declarationOrderKey(sym: CatalogSymbol, asked: string, parentOf: ParentOf): number[] {
  const r = rankCandidate(sym, asked, 'any', parentOf);
  return [r.key[1]!, r.key[2]!, r.key[3]!, r.visibility];
}

/**
 * A partial match's place by its name (0 first): the name holds every word of the query (`idle
 * timeout` in IdleTimeout), some of them, or none (a match by qualified name, signature, docs, or a
 * fuzzy one). Without it, scope and role came before the text: on GOROOT `idle timeout` listed the
 * field Server.IdleTimeout (score 225) 48th, after top-level functions matching by their docs only.
 */
export function nameHold(lowerName: string, words: readonly string[]): number {
  let held = 0;
  for (const w of words) if (lowerName.includes(w)) held++;
  return held === words.length ? 0 : held > 0 ? 1 : 2;
}

/**
 * A partial match's order after nameHold, from its fixedPolicyKey: source before tests, locals last;
 * then the text score. Scope and visibility order the declarations a name means (find_definition's
 * tie), not how well a text matches: ahead of the score they put every top-level test function
 * before a source field whose name is the query's words.
 */
function partialKey(fixed: number): [role: number, local: number] {
  return [Math.floor((fixed % 12) / 6), Math.floor(fixed / 12) === SCOPE_RANK.local ? 1 : 0];
}

/** The query's words as nameHold reads them. */
export function queryWords(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * search_symbols: the text match decides first (the name asked for, or the qualified name, in any
 * case, then partial matches by how much of the query their name holds: nameHold), then
 * declarationOrderKey, then the text score.
 */
export function policyOrder<T extends { symbol: CatalogSymbol; score: number }>(hits: T[], query: string, parentOf: ParentOf): T[] {
  const q = query.trim();
  // A blank query lists symbols in file and line order: there is no name to rank against.
  if (q === '') return hits;
  const last = lastSegment(q);
  const words = queryWords(q);
  const key = (s: CatalogSymbol): number[] => {
    if (s.name === q || s.qualified_name === q || s.name.toLowerCase() === last.toLowerCase()) return [0, ...declarationOrderKey(s, q, parentOf)];
    const fixed = fixedPolicyKey(s, parentOf);
    return [1 + nameHold(s.name.toLowerCase(), words), ...partialKey(fixed)];
  };
  return hits
    .map((h, i) => ({ h, i, key: key(h.symbol) }))
    .sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i)
    .map((x) => x.h);
}

/** searchPolicyKey's part that does not depend on the query: scope * 12 + role * 6 + visibility. */
export function fixedPolicyKey(s: CatalogSymbol, parentOf: ParentOf): number {
  return SCOPE_RANK[scopeOf(s, parentOf)] * 12 + ROLE_RANK[pathRole(s.file, s.language)] * 6 + visibilityOf(s, parentOf);
}

/**
 * fixedPolicyKey of each of one file's symbols (entry order), their parents looked up among them, the
 * last of an id as the catalog's byId finds it: what the store keeps beside each symbol's texts.
 */
export function fixedPolicyKeys(symbols: readonly CatalogSymbol[]): Uint8Array {
  const byId = new Map<string, CatalogSymbol>();
  for (const s of symbols) byId.set(s.symbol_id, s);
  const parentOf = (id: string) => byId.get(id);
  const keys = new Uint8Array(symbols.length);
  symbols.forEach((s, i) => (keys[i] = fixedPolicyKey(s, parentOf)));
  return keys;
}

/** Per catalog version (its ordered symbol list): scope * 12 + role * 6 + visibility of each position, 255 = not worked out yet. */
const fixedKeys = new WeakMap<readonly (CatalogSymbol | undefined)[], Uint8Array>();

/**
 * policyOrder's key of the symbol at each position of `ranker`, as one number (lower first; the
 * name asked for: scope, role, case, visibility; a partial match: 36 × (1 + nameHold), role, local),
 * for SymbolRanker.top: the same order as policyOrder without ranking every match. Scope, role and
 * visibility do not depend on the query and are kept per catalog version.
 * Undefined for a blank query (policyOrder keeps file and line order).
 */
export function searchPolicyKey(ranker: SymbolRanker, query: string, parentOf: ParentOf): PolicyKey | undefined {
  const q = query.trim();
  if (q === '') return undefined;
  const last = lastSegment(q);
  const lastLower = last.toLowerCase();
  const lastHash = textHash(lastLower);
  const queryHash = textHash(q.toLowerCase());
  const symbols = ranker.symbols;
  let fixed = fixedKeys.get(symbols);
  // the ranker appends slots as files change (a slot's symbol never changes): the keys grow with it
  if (!fixed || fixed.length < symbols.length) {
    const more = new Uint8Array(Math.max(symbols.length, (fixed?.length ?? 0) * 2)).fill(255);
    if (fixed) more.set(fixed);
    fixedKeys.set(symbols, (fixed = more));
  }
  const keys = fixed;
  const words = queryWords(q);
  const isNamed = (pos: number) => {
    // Each test below needs the lower-cased name to be q's or last's, or the qualified name q's.
    if (!ranker.mayBeNamed(pos, lastHash, queryHash) && !ranker.mayBeNamed(pos, queryHash, queryHash)) return false;
    const s = symbols[pos]!;
    return s.name === q || s.qualified_name === q || ranker.lowerName(pos) === lastLower;
  };
  const partial = (lname: string, fixed: number) => {
    const [role, local] = partialKey(fixed);
    return 36 * (1 + nameHold(lname, words)) + role * 6 + local * 3;
  };
  const qLower = q.toLowerCase();
  return (pos, stored) => {
    if (stored) {
      // the same tests from the stored parts; the qualified name's exact case only when its lower case is q's
      const named = stored.name === q || stored.lname === lastLower || (stored.lqn === qLower && stored.symbol()?.qualified_name === q);
      return named ? stored.fixed + (stored.name === last ? 0 : 3) : partial(stored.lname, stored.fixed);
    }
    let f = keys[pos]!;
    if (f === 255) keys[pos] = f = fixedPolicyKey(symbols[pos]!, parentOf);
    if (!isNamed(pos)) return partial(ranker.lowerName(pos), f);
    return f + (symbols[pos]!.name === last ? 0 : 3);
  };
}
