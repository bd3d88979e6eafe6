/**
 * list_package_exports: a package (TS: a module file `src/util/strings` or a directory with an
 * index; others: the adapter's packageFiles, else the catalog's package/namespace) → its exported
 * symbols. TS re-exports (`export * from`, `export { a as b } from`) with relative specifiers are
 * followed by path (`.js` → `.ts`, up to 5 levels); bare specifiers (dependencies) are not.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { boundedScanImports } from '../../adapters/import-scan.js';
import { adapterFor } from '../../adapters/index.js';
import { languageProfile, languageProfiles } from '../../adapters/languages.js';
import type { FileContext, SymbolContext } from '../../adapters/types.js';
import { LspgateError } from '../../errors/errors.js';
import type { SymbolDescriptor } from '../../schema/descriptors.js';
import { isInside, toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { symbolIdFor } from '../symbol-ids.js';

export type ExportedSymbol = SymbolDescriptor & { symbol_id: string };

export interface ExportsInput {
  package?: string | undefined;
  namespace?: string | undefined;
  symbol_type?: string | undefined;
  language?: string | undefined;
  max_results?: number | undefined;
}

export async function packageExports(call: ServiceCall, input: ExportsInput): Promise<{ package: string; files: string[]; symbols: ExportedSymbol[] }> {
  const name = input.package ?? input.namespace;
  if (!name) throw new LspgateError('INVALID_INPUT', 'give `package` (module path, directory, import path) or `namespace`');
  const files = await packageFilesOf(call, name, input.package === undefined);
  const out: ExportedSymbol[] = [];
  const visited = new Set<string>();
  for (const abs of files) await collect(call, abs, out, visited, 0, undefined);
  let symbols = out;
  if (input.symbol_type) symbols = symbols.filter((s) => s.kind === input.symbol_type);
  if (input.language) symbols = symbols.filter((s) => s.language === input.language);
  const max = input.max_results ?? 200;
  if (symbols.length > max) {
    call.meta.truncate();
    call.meta.limit({ limit: 'max_results', value: max, detail: `${symbols.length} exports, ${max} shown` });
    symbols = symbols.slice(0, max);
  }
  return { package: name, files: files.map((f) => toRelative(call.root, f)), symbols };
}

/** Module path, directory (its index, else its files), adapter package files, or catalog package/namespace. */
async function packageFilesOf(call: ServiceCall, name: string, isNamespace: boolean): Promise<string[]> {
  if (!isNamespace) {
    const direct = modulePathFiles(call, name);
    if (direct) return direct;
  }
  const all = call.workspace.catalog.all ? await call.workspace.catalog.all() : [];
  const candidates = [...new Set(all.map((s) => path.join(call.root, s.file)))];
  for (const entry of call.env.servers) {
    const adapter = adapterFor(entry.adapter);
    const files = await adapter.packageFiles?.(call.root, name, candidates);
    if (files?.length) return files;
  }
  const matching = [...new Set(all.filter((s) => s.package === name || s.namespace === name).map((s) => path.join(call.root, s.file)))];
  if (matching.length) return matching.sort();
  throw new LspgateError('SYMBOL_NOT_FOUND', `no package, module or namespace named ${name}`, { package: name });
}

function modulePathFiles(call: ServiceCall, name: string): string[] | undefined {
  let abs: string;
  try {
    abs = call.resolvePath(name.replace(/^\.\//, ''), { mustExist: false });
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'PATH_OUTSIDE_WORKSPACE') throw e;
    return undefined;
  }
  const file = resolveModuleFile(abs);
  if (file) return [call.resolvePath(file, { expect: 'file' })];
  if (existsSync(abs) && statSync(abs).isDirectory()) {
    const index = resolveModuleFile(path.join(abs, 'index'));
    if (index) return [call.resolvePath(index)];
    const routes = filesIn(abs).map((f) => ({ f, route: call.env.broker.route(f, call.root) }));
    const routed = routes.filter((r) => r.route);
    // A directory is the package only for languages without their own notion of one: a Go
    // directory holds _test.go files, a Python package has __init__ rules. Those adapters decide.
    if (routed.length && routed.every((r) => !adapterFor(r.route!.entry.adapter).packageFiles)) return routed.map((r) => r.f);
  }
  return undefined;
}

function filesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

/**
 * The source file a module path names, by the languages' own import rules (a `.js` path of a
 * TypeScript project is its `.ts` source); a file no rule maps is itself; undefined when none exists.
 */
export function resolveModuleFile(abs: string): string | undefined {
  for (const rules of new Set(languageProfiles().map((p) => p.project))) {
    const file = rules.moduleFile?.(abs);
    if (file) return file;
  }
  return existsSync(abs) && statSync(abs).isFile() ? abs : undefined;
}

async function collect(
  call: ServiceCall,
  abs: string,
  out: ExportedSymbol[],
  visited: Set<string>,
  depth: number,
  only: Map<string, string> | undefined,
): Promise<void> {
  const key = `${abs}\0${only ? [...only].join(',') : '*'}`;
  if (visited.has(key) || depth > 5) return;
  visited.add(key);
  const file = await call.file(abs);
  call.meta.addSourceFile(abs);
  const adapter = call.adapter(file);
  const seen = new Set<string>();
  for (const symbol of file.symbols) {
    const ctx: SymbolContext = { file, symbol, parents: [] };
    if (!adapter.isExported(ctx)) continue;
    const alias = only ? only.get(symbol.name) : symbol.name;
    if (alias === undefined) continue;
    const kind = adapter.symbolKind(ctx);
    if (seen.has(`${symbol.name}\0${kind}`)) continue; // overloads: one entry
    seen.add(`${symbol.name}\0${kind}`);
    const d: ExportedSymbol = { ...listed(adapter.symbolDescriptor(ctx)), symbol_id: await symbolIdFor(call, ctx) };
    if (alias !== symbol.name) {
      d.metadata = { ...(d.metadata ?? {}), exported_as: alias, original_name: symbol.name };
      d.name = alias;
    }
    out.push(d);
  }
  if (languageProfile(file.language)?.declarations.reExports) await followReExports(call, file, out, visited, depth, only);
}

/**
 * In a listing, a symbol's location is its file path and lines: the absolute `uri` (optional in the
 * descriptor schema) repeats the workspace root on every entry and is left to single-symbol answers.
 */
function listed(d: SymbolDescriptor): SymbolDescriptor {
  if (!d.location?.uri) return d;
  const { uri: _uri, ...location } = d.location;
  return { ...d, location };
}

async function followReExports(
  call: ServiceCall,
  file: FileContext,
  out: ExportedSymbol[],
  visited: Set<string>,
  depth: number,
  only: Map<string, string> | undefined,
): Promise<void> {
  // `export … from` statements, read from the file's syntax tree (comments and strings are no statements)
  for (const imp of (await boundedScanImports(file.relPath, file.text, call.env.limits, call.signal)) ?? []) {
    if (imp.kind !== 'export' || !imp.reexports) continue;
    const spec = imp.specifier;
    if (!spec.startsWith('.')) {
      call.meta.warn(`re-export from ${spec} in ${file.relPath} not followed (outside the workspace sources)`);
      continue;
    }
    const target = resolveModuleFile(path.resolve(path.dirname(file.absPath), spec));
    if (!target || !isInside(call.root, target)) continue;
    if (imp.reexports === 'namespace') continue; // `export * as ns from`: a namespace object, not its members
    let names = imp.reexports === 'all' ? undefined : new Map(imp.reexports.map((r) => [r.name, r.as]));
    if (only && names) names = new Map([...names].filter(([, a]) => only.has(a)).map(([o, a]) => [o, only.get(a)!]));
    else if (only) names = only;
    await collect(call, target, out, visited, depth + 1, names);
  }
}
