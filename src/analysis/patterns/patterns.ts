/**
 * find_patterns (its output schema: operations/contracts/analysis.ts): recurring structures of a workspace.
 * - inheritance: types that extend or implement the same base, from the bases their headers name
 *   (read from parse trees) as the server's own definition resolves them (type-relations.ts), or for
 *   interfaces satisfied implicitly (Go) the server's textDocument/implementation; a base counts once
 *   two or more types share it.
 * - framework: framework models (the PHP adapter's Eloquent model detection, the same as find_type_definition)
 *   and HTTP route registrations (pattern-scan.ts).
 * - decorators, error-handling: forms of code found on tree-sitter trees (pattern-scan.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ImplementationRequest } from 'vscode-languageserver-protocol';

import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import { PATTERN_TYPES } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import { typeDefinition } from '../../service/descriptors/descriptors.js';
import { locate, toLocations } from '../../service/locations.js';
import { declaredBases, headerReferences, SYNTAX_SOURCE, TYPE_KINDS, typeAt } from '../../service/relations/type-relations.js';
import { isInside } from '../../util/paths.js';
import { addCatalogErrors, perFile, type Skips, skipsOf } from '../skips.js';
import { boundedScanFile } from './pattern-scan.js';

export { PATTERN_TYPES };
export type PatternType = (typeof PATTERN_TYPES)[number];

export interface PatternSite {
  file: string;
  line: number;
  symbol_id?: string;
}

/** Where a pattern was found: forms of parse trees, bases of parse trees resolved by the server, or the server's answers. */
export type PatternSource = 'syntax' | typeof SYNTAX_SOURCE | 'server';

export interface Pattern {
  name: string;
  pattern_type: PatternType;
  source: PatternSource;
  /** Distinct files, sorted. */
  files: string[];
  usage: number;
  description: string;
  /** The first occurrences (at most MAX_SITES), file then line order. */
  sites: PatternSite[];
}

export interface PatternsLimits {
  max_files: number;
  max_types: number;
}

const MAX_SITES = 5;

class Groups {
  private readonly map = new Map<string, { type: PatternType; source: PatternSource; description: string; sites: PatternSite[] }>();

  add(type: PatternType, name: string, description: string, site: PatternSite, source: PatternSource = 'syntax'): void {
    let g = this.map.get(name);
    if (!g) this.map.set(name, (g = { type, source, description, sites: [] }));
    // a base with several declarations (tsserver: lib's `interface Error` and `var Error`) counts a type once
    if (site.symbol_id && g.sites.some((s) => s.symbol_id === site.symbol_id)) return;
    g.sites.push(site);
  }

  patterns(minUsage: (type: PatternType) => number, describe?: (name: string, sites: PatternSite[], base: string) => string): Pattern[] {
    const out: Pattern[] = [];
    for (const [name, g] of this.map) {
      if (g.sites.length < minUsage(g.type)) continue;
      const sites = [...g.sites].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
      const files = [...new Set(sites.map((s) => s.file))].sort();
      out.push({
        name,
        pattern_type: g.type,
        source: g.source,
        files,
        usage: sites.length,
        description: describe ? describe(name, sites, g.description) : g.description,
        sites: sites.slice(0, MAX_SITES),
      });
    }
    return out;
  }
}

export async function findPatterns(
  call: ServiceCall,
  types: readonly PatternType[],
  limits: PatternsLimits,
): Promise<{ patterns: Pattern[]; files_scanned: number; types_checked: number }> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const groups = new Groups();
  const skips = skipsOf(call);
  addCatalogErrors(skips, catalog.status().errors);
  let files_scanned = 0;
  let types_checked = 0;
  if (types.includes('inheritance') || types.includes('framework')) {
    const all = await catalog.all();
    const typeSyms = all.filter((s) => TYPE_KINDS.has(s.kind));
    const checked = typeSyms.slice(0, limits.max_types);
    if (typeSyms.length > checked.length)
      call.meta.limit({ limit: 'max_types', value: limits.max_types, detail: `${typeSyms.length - checked.length} type(s) not checked` });
    types_checked = checked.length;
    if (types.includes('inheritance')) await inheritance(call, checked, groups, skips);
    if (types.includes('framework')) await frameworkModels(call, checked, groups, skips);
  }
  const scanTypes = new Set<string>(types.filter((t) => t !== 'inheritance'));
  if (scanTypes.size) {
    const files = [...catalog.files().keys()].sort();
    const scanned = files.slice(0, limits.max_files);
    if (files.length > scanned.length)
      call.meta.limit({ limit: 'max_files', value: limits.max_files, detail: `${files.length - scanned.length} file(s) not scanned` });
    for (const rel of scanned) {
      if (call.signal?.aborted) break;
      for (const h of (await perFile(skips, rel, () => boundedScanFile(rel, readFileSync(path.join(call.root, rel), 'utf8'), call.env.limits, call.signal))) ??
        []) {
        if (scanTypes.has(h.pattern_type)) groups.add(h.pattern_type, h.name, h.description, { file: rel, line: h.line });
      }
    }
    files_scanned = scanned.length;
  }
  const patterns = groups.patterns((t) => (t === 'inheritance' ? 2 : 1), describeGroup);
  patterns.sort((a, b) => b.usage - a.usage || a.name.localeCompare(b.name));
  return { patterns, files_scanned, types_checked };
}

function describeGroup(name: string, sites: PatternSite[], base: string): string {
  const files = new Set(sites.map((s) => s.file)).size;
  return `${base}: ${sites.length} use(s) in ${files} file(s)`;
}

/**
 * Subtype groups: header names resolved by the server, or the server's implementations of
 * implicitly satisfied interfaces (Go). A type whose file the server cannot answer for skips that file.
 */
async function inheritance(call: ServiceCall, types: CatalogSymbol[], groups: Groups, skips: Skips): Promise<void> {
  for (const t of types) {
    if (call.signal?.aborted) return;
    if (skips.has(t.file)) continue;
    await perFile(skips, t.file, () => typeBases(call, t, groups));
  }
}

async function typeBases(call: ServiceCall, t: CatalogSymbol, groups: Groups): Promise<void> {
  if (languageProfile(t.language)?.types.implicitInterfaces) {
    if (t.kind === 'interface') await implicitImplementations(call, t, groups);
    return;
  }
  const site = { file: t.file, line: t.selection_line, symbol_id: t.symbol_id };
  // a type alias's `extends` is a conditional type or a constraint, never a base: the header hook reads no aliases
  for (const ref of await headerReferences(call, t)) {
    if (ref.target) {
      const verb = ref.target.kind === 'interface' ? 'implement' : 'extend';
      groups.add(
        'inheritance',
        `subtypes of ${ref.target.qualified_name}`,
        `types that ${verb} ${ref.target.kind} ${ref.target.qualified_name} (${ref.target.file}:${ref.target.selection_line})`,
        site,
        SYNTAX_SOURCE,
      );
    } else if (ref.external && !isInside(call.root, ref.external)) {
      groups.add(
        'inheritance',
        `subtypes of ${ref.name} (external)`,
        `types that extend or implement ${ref.name}, declared outside the workspace (${path.basename(ref.external)})`,
        site,
        SYNTAX_SOURCE,
      );
    }
    // a name that resolves inside the workspace but not to a type (an import binding, a namespace) is no base
  }
}

/** Implementations of an interface that types satisfy without naming it (Go): the server's implementation answer. */
async function implicitImplementations(call: ServiceCall, iface: CatalogSymbol, groups: Groups): Promise<void> {
  const file = await call.file(path.join(call.root, iface.file));
  if (!file.session.hasCapability('implementationProvider')) return;
  const position = toLspPosition(file.text, iface.selection_line, iface.selection_column, file.session.positionEncoding);
  const answer = await file.session.request(ImplementationRequest.type, { textDocument: { uri: file.uri }, position }, { signal: call.signal });
  const seen = new Set<string>();
  for (const loc of toLocations(answer)) {
    const impl = await typeAt(call, locate(call.root, loc.uri), loc.range.start.line);
    if (!impl || impl.kind === 'interface' || seen.has(impl.symbol_id)) continue;
    seen.add(impl.symbol_id);
    groups.add(
      'inheritance',
      `subtypes of ${iface.qualified_name}`,
      `types that implement interface ${iface.qualified_name} (${iface.file}:${iface.selection_line})`,
      { file: impl.file, line: impl.selection_line, symbol_id: impl.symbol_id },
      'server',
    );
  }
}

/**
 * Classes the adapter gives a framework's kind `model` (the PHP adapter's Eloquent models: their
 * extends chain reaches Eloquent's Model), for the languages whose profile names such models.
 */
async function frameworkModels(call: ServiceCall, types: CatalogSymbol[], groups: Groups, skips: Skips): Promise<void> {
  for (const t of types) {
    const models = languageProfile(t.language)?.syntax.patterns?.models;
    if (!models || t.kind !== 'class' || skips.has(t.file)) continue;
    const d = await perFile(skips, t.file, async () =>
      (await declaredBases(call, t, (b) => b.relation === 'extends')).length ? typeDefinition(call, { symbol_id: t.symbol_id }) : undefined,
    );
    if (d?.kind !== 'model') continue;
    groups.add('framework', models.name, models.description, { file: t.file, line: t.selection_line, symbol_id: t.symbol_id }, 'server');
  }
}
