/**
 * PHP source facts shared by the adapter (namespace, name resolution, declaration text) and
 * Eloquent model detection: a class is a model when its `extends` chain, followed through
 * intelephense's definitions (the one place this adapter asks the server), reaches a known root.
 */
import { DefinitionRequest, type DocumentSymbol, type Location, type LocationLink, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { toLspPosition } from '../../../lsp/positions.js';
import { decoratorNames, typeHeaderOf } from '../../file-structure.js';
import { parsePhpFunctionHeader, phpNamespace, resolvePhpClass } from '../../php/source.js';
import type { FileContext } from '../../types.js';
import { type EloquentInfo, eloquentInfo, MODEL_ROOTS, type ModelMethod } from './eloquent.js';

const MAX_MODEL_DEPTH = 8;

export function ns(file: FileContext): string | undefined {
  return phpNamespace(file.lines);
}

/** The file's class imports, local name → full name, from its parse tree (grouped `use` over any number of lines included). */
export function phpUses(file: FileContext): Map<string, string> {
  return new Map((file.structure()?.aliases ?? []).flatMap((a) => (a.full === undefined ? [] : [[a.local, a.full] as const])));
}

export function resolver(file: FileContext): (name: string) => string {
  const uses = phpUses(file);
  const namespace = ns(file);
  return (name) => resolvePhpClass(name, uses, namespace);
}

export function fullName(file: FileContext, name: string): string {
  const namespace = ns(file);
  return namespace ? `${namespace}\\${name}` : name;
}

export function declLine(file: FileContext, s: DocumentSymbol): string {
  return (file.lines[s.selectionRange.start.line] ?? '').trim();
}

export function classText(file: FileContext, s: DocumentSymbol): string {
  return file.lines.slice(s.range.start.line, s.range.end.line + 1).join('\n');
}

/** Body text of a method: from the `{` after its header to the end of its range. */
export function methodBody(file: FileContext, s: DocumentSymbol): string {
  const text = file.lines.slice(s.selectionRange.start.line, s.range.end.line + 1).join('\n');
  const open = text.indexOf('{');
  return open < 0 ? '' : text.slice(open + 1, text.lastIndexOf('}'));
}

// ---- Eloquent model detection: follow `extends` through definitions up to a known root. ----

const modelCache = new WeakMap<FileContext, Map<string, Promise<boolean>>>();

function isModel(file: FileContext, cls: DocumentSymbol, depth = 0): Promise<boolean> {
  let perFile = modelCache.get(file);
  if (!perFile) modelCache.set(file, (perFile = new Map()));
  const key = `${cls.name}@${cls.range.start.line}`;
  let p = perFile.get(key);
  if (!p) {
    p = checkModel(file, cls, depth);
    perFile.set(key, p);
  }
  return p;
}

async function checkModel(file: FileContext, cls: DocumentSymbol, depth: number): Promise<boolean> {
  if (cls.kind !== Lsp.Class || depth > MAX_MODEL_DEPTH) return false;
  // the class's `extends`, from its parse tree (below any docblock and attributes)
  const base = typeHeaderOf(file, cls)?.bases.find((b) => b.relation === 'extends');
  if (!base) return false;
  if (MODEL_ROOTS.has(resolver(file)(base.written))) return true;
  const def = await file.session.request(DefinitionRequest.type, {
    textDocument: { uri: file.uri },
    position: toLspPosition(file.text, base.at.line, base.at.column, file.session.positionEncoding),
  });
  const target = firstLocation(def);
  if (!target) return false;
  // Outside the workspace (vendor elsewhere, a link out of the root): the definition is not read, so the chain stops.
  const where = file.locate(target.uri);
  if (where.where !== 'inside') return false;
  let other: FileContext;
  try {
    other = where.abs === file.absPath ? file : await file.loadFile(where.abs);
  } catch {
    return false;
  }
  const parentName = base.name;
  const sym = other.symbols.find((s) => s.kind === Lsp.Class && s.name === parentName);
  if (!sym) return false;
  if (MODEL_ROOTS.has(fullName(other, parentName))) return true;
  return isModel(other, sym, depth + 1);
}

function firstLocation(def: Location | Location[] | LocationLink[] | null): { uri: string } | undefined {
  if (!def) return undefined;
  const first = Array.isArray(def) ? def[0] : def;
  if (!first) return undefined;
  return 'targetUri' in first ? { uri: first.targetUri } : { uri: first.uri };
}

function modelMethods(file: FileContext, cls: DocumentSymbol): ModelMethod[] {
  return (cls.children ?? [])
    .filter((c) => c.kind === Lsp.Method)
    .map((c) => {
      const h = parsePhpFunctionHeader(file.lines, c.selectionRange.start.line);
      return {
        name: c.name,
        body: methodBody(file, c),
        ...(h?.returnType ? { returnType: h.returnType } : {}),
        attributes: decoratorNames(file, c).map((a) => resolver(file)(a)),
      };
    });
}

export async function modelInfo(file: FileContext, cls: DocumentSymbol): Promise<EloquentInfo | undefined> {
  if (!(await isModel(file, cls))) return undefined;
  return eloquentInfo(cls.name, classText(file, cls), modelMethods(file, cls), resolver(file));
}
