/**
 * Where each import of a file points, as the language server sees it: textDocument/definition at
 * the specifier (or at the imported name where the server resolves names, not strings), so path
 * aliases, tsconfig paths, Go modules and Python packages resolve as the compiler resolves them.
 * A definition inside the workspace is a `workspace` edge; outside it (lib.d.ts, GOROOT, typeshed,
 * vendor stubs) `external`; no answer `unresolved`. PHP `require`/`include` name a path, not a
 * symbol, and no server resolves them: a literal or `__DIR__`-relative path is resolved against the
 * including file's directory (PHP's own rule for `__DIR__`), anything computed stays unresolved.
 */
import { statSync } from 'node:fs';
import path from 'node:path';

import { type Definition, type DefinitionLink, DefinitionRequest, HoverRequest } from 'vscode-languageserver-protocol';

import { boundedScanImports, type ScannedImport } from '../../adapters/import-scan.js';
import type { ImportSyntax } from '../../adapters/language-profile.js';
import { syntaxOf } from '../../adapters/languages.js';
import type { FileContext } from '../../adapters/types.js';
import { LspgateError } from '../../errors/errors.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../../service/call.js';
import { loadFileContext } from '../../service/file-context.js';
import { LineSource, type ResolvedLocation, resolveLocations, toLocations } from '../../service/locations.js';
import { catalogIdAt } from '../../service/symbol-ids.js';
import { isInside, isSecretPath, toRelative } from '../../util/paths.js';

export type ImportStatus = 'workspace' | 'external' | 'unresolved';

export interface ResolvedImport extends ScannedImport {
  status: ImportStatus;
  /** Workspace-relative file (status workspace) or absolute path (external). */
  target?: string;
  /** 1-based line the definition landed on (a module answers line 1). */
  target_line?: number;
  /** The catalog symbol the definition landed on (`use App\Math\Calc` → the class). */
  target_symbol_id?: string;
  resolved_by: 'definition' | 'include-path' | 'package-path' | 'none';
  /** Go: the imported package's directory and its non-test files (set by the import graph). */
  target_package?: string;
  target_files?: string[];
}

export interface FileImports {
  file: string;
  imports: ResolvedImport[];
}

/**
 * The imports of one workspace file, each resolved; undefined when no grammar covers the file. The
 * file is loaded outside the call's own files (not `call.file`): the graph opens it only for these
 * requests and closes it after (held-documents.ts), and a question of the same call loads it itself.
 */
export async function resolveFileImports(call: ServiceCall, abs: string, relPath: string): Promise<FileImports | undefined> {
  const file = await loadFileContext(call, abs);
  const scanned = await boundedScanImports(relPath, file.text, call.env.limits, call.signal);
  if (!scanned) return undefined;
  const src = new LineSource(call);
  const rules = syntaxOf(relPath)?.profile.syntax.imports;
  const statements = scanned.filter((imp) => !imp.member);
  const imports = await mapBounded(statements, (imp) => {
    if (imp.kind === 'include') return Promise.resolve(includeTarget(call, file, imp));
    return Promise.resolve(relativePackageTarget(call, rules, file, imp) ?? definitionTarget(call, src, file, imp));
  });
  const byLine = new Map(imports.map((i) => [i.start_line, i]));
  const isPackageModule = (target: string) => rules?.isPackageModule?.(target) ?? false;
  // Only a package has submodules: `from pkg.mod import name` names a member of mod.py.
  const members = scanned.filter((imp) => {
    const stmt = imp.member ? byLine.get(imp.start_line) : undefined;
    return imp.member && !(stmt?.target && !/^\.+$/.test(stmt.specifier) && !isPackageModule(stmt.target));
  });
  for (const [i, r] of (await mapBounded(members, (imp) => definitionTarget(call, src, file, imp))).entries()) {
    const m = members[i]!;
    // the definition of an aliased name (`as _ew`) lands on the alias in this file, or nowhere
    const unanswered = !r.target || r.target === file.relPath;
    const found = r.target && rules?.isModuleNamed?.(r.target, m.member!) ? r : unanswered ? submoduleOf(call, rules, byLine.get(m.start_line), m) : undefined;
    if (found && !imports.some((x) => x.start_line === found.start_line && x.target === found.target)) imports.push(found);
  }
  imports.sort((a, b) => a.line - b.line || (a.ask[0]?.column ?? 0) - (b.ask[0]?.column ?? 0));
  return { file: file.relPath, imports };
}

/** Definition requests of one file in flight at once: the file's imports are asked together, not in turn. */
const PER_FILE_CONCURRENCY = 4;

/** `fn` over `items`, at most PER_FILE_CONCURRENCY at once, results in the items' order. */
async function mapBounded<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PER_FILE_CONCURRENCY, items.length) }, worker));
  return out;
}

async function definitionTarget(call: ServiceCall, src: LineSource, file: FileContext, imp: ScannedImport): Promise<ResolvedImport> {
  for (const at of imp.ask) {
    const position = toLspPosition(file.text, at.line, at.column, file.session.positionEncoding);
    let answer: Definition | DefinitionLink[] | null;
    try {
      answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position }, { signal: call.signal });
    } catch (e) {
      // gopls answers definition on an import it cannot resolve with an error response ("failed to
      // resolve import", code 0), not an empty answer: that is this import's answer, not a failure of
      // the file — unless the server cannot answer for the file at all (gopls: "no package metadata"
      // for a file its build constraints exclude, same code), which is the file's failure.
      if (e instanceof LspgateError && e.code === 'INTERNAL' && e.details?.lspCode !== undefined && (await fileAnswers(call, file))) continue;
      throw e;
    }
    const locs = resolveLocations(call, src, file.session, toLocations(answer));
    const best = pickLocation(locs);
    if (best) return withTarget(call, imp, best);
  }
  // specifiers the compiler provides (Go's `unsafe`, cgo's `C`) have no file to point at, yet they resolve
  if (syntaxOf(file.relPath)?.profile.syntax.imports?.builtins?.includes(imp.specifier)) return { ...imp, status: 'external', resolved_by: 'none' };
  return { ...imp, status: 'unresolved', resolved_by: 'none' };
}

/**
 * Whether the server answers requests about this file at all: a hover at its first position is
 * answered (null or not) for every file the server has loaded, and fails like every other request
 * for one it has no package for. Asked once per file, only after a definition failed.
 */
async function fileAnswers(call: ServiceCall, file: FileContext): Promise<boolean> {
  try {
    await file.session.request(HoverRequest.type, { textDocument: { uri: file.uri }, position: { line: 0, character: 0 } }, { signal: call.signal });
    return true;
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'CANCELLED') throw e;
    return false;
  }
}

/**
 * A specifier can answer several definitions (gopls: one per file of the package; tsserver: one per
 * project). Workspace locations first, then the earliest file in path order, so the answer is stable.
 */
function pickLocation(locs: ResolvedLocation[]): ResolvedLocation | undefined {
  return [...locs].sort((a, b) => Number(a.external) - Number(b.external) || a.file.localeCompare(b.file) || a.line - b.line)[0];
}

async function withTarget(call: ServiceCall, imp: ScannedImport, loc: ResolvedLocation): Promise<ResolvedImport> {
  // tsserver answers an unresolvable relative specifier (`./nope`) with a location in a file that
  // does not exist: that is no resolution.
  if (!isFile(loc.absPath)) return { ...imp, status: 'unresolved', resolved_by: 'none' };
  if (loc.external) return { ...imp, status: 'external', target: loc.file, target_line: loc.line, resolved_by: 'definition' };
  const out: ResolvedImport = { ...imp, status: 'workspace', target: loc.file, target_line: loc.line, resolved_by: 'definition' };
  const word = /^[\w$]+/.exec((loc.lines[loc.line - 1] ?? '').slice(loc.column - 1))?.[0];
  if (word) {
    const id = await catalogIdAt(call, loc.file, loc.line, loc.column, word);
    if (id) out.target_symbol_id = id;
  }
  return out;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/**
 * `from pkg import name [as alias]` where the server's definition of `name` did not land on a
 * module (pyright answers the definition of an aliased name with the alias): Python's import
 * system loads `pkg/name.py` (or `pkg/name/__init__.py`) when the package has no attribute of that
 * name, so a file of that name beside the package's own module — the package the server resolved
 * the statement to — is the submodule the statement loads (the profile's `submoduleFiles`).
 */
function submoduleOf(call: ServiceCall, rules: ImportSyntax | undefined, stmt: ResolvedImport | undefined, m: ScannedImport): ResolvedImport | undefined {
  if (!rules?.submoduleFiles || stmt?.status !== 'workspace' || !stmt.target || !rules.isPackageModule?.(stmt.target) || !m.member) return undefined;
  const dir = path.join(call.root, path.dirname(stmt.target));
  for (const candidate of rules.submoduleFiles(m.member).map((f) => path.join(dir, f))) {
    if (isInside(call.root, candidate) && isFile(candidate))
      return { ...m, status: 'workspace', target: toRelative(call.root, candidate), target_line: 1, resolved_by: 'package-path' };
  }
  return undefined;
}

/**
 * `from . import x` / `from .. import x` (a specifier of dots only): the statement imports the
 * package the dots name, which runs that package's own module (PEP 328: one dot is the importing
 * module's package, each further dot its parent; the profile's `packageModules`). The definition of
 * `x` lands wherever `x` is defined (a submodule, or the module the package re-exports it from),
 * which is the member's edge, not the statement's. A namespace package (no such module) has no
 * file: its names are asked as before.
 */
function relativePackageTarget(call: ServiceCall, rules: ImportSyntax | undefined, file: FileContext, imp: ScannedImport): ResolvedImport | undefined {
  if (!rules?.packageModules || !/^\.+$/.test(imp.specifier)) return undefined;
  let dir = path.dirname(file.absPath);
  for (let up = 1; up < imp.specifier.length; up++) dir = path.dirname(dir);
  for (const own of rules.packageModules) {
    const abs = path.join(dir, own);
    if (isInside(call.root, abs) && isFile(abs))
      return { ...imp, status: 'workspace', target: toRelative(call.root, abs), target_line: 1, resolved_by: 'package-path' };
  }
  return undefined;
}

function includeTarget(call: ServiceCall, file: FileContext, imp: ScannedImport): ResolvedImport {
  if (!imp.path) return { ...imp, status: 'unresolved', resolved_by: 'none' };
  const rest = imp.path.startsWith('__DIR__') ? imp.path.slice('__DIR__'.length) : imp.path;
  const abs = path.resolve(path.dirname(file.absPath), rest.replace(/^\/+/, ''));
  if (isSecretPath(abs) || !isFile(abs)) return { ...imp, status: 'unresolved', resolved_by: 'none' };
  if (!isInside(call.root, abs)) return { ...imp, status: 'external', target: abs, target_line: 1, resolved_by: 'include-path' };
  return { ...imp, status: 'workspace', target: toRelative(call.root, abs), target_line: 1, resolved_by: 'include-path' };
}
