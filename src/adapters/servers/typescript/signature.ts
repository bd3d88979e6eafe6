/**
 * TypeScript signatures → parameters and return types. Input is what tsserver prints in hovers
 * (`(method) User.login(when?: Date): number`) or the source text of a declaration
 * (`login(when: Date = new Date()): number {`).
 */
import type { ParamDescriptor } from '../../../schema/descriptors.js';
import { collapseWhitespace } from '../../../util/whitespace.js';
import { indexOfTopLevel, matchingClose, splitTopLevel } from '../../typescript/source-text.js';

const PARAM_MODIFIERS = new Set(['public', 'private', 'protected', 'readonly', 'override']);

export interface TsParameter extends ParamDescriptor {
  /** Parameter-property modifiers (`public readonly radius`). */
  modifiers?: string[];
}

/** One parameter list (the text between the parentheses) → parameters. */
export function parseTsParameters(list: string): TsParameter[] {
  return splitTopLevel(list).map(parseTsParameter);
}

function parseTsParameter(text: string): TsParameter {
  let rest = text.trim();
  const modifiers: string[] = [];
  for (;;) {
    const m = /^(\w+)\s+(?=[\w$#.{[])/.exec(rest);
    if (!m || !PARAM_MODIFIERS.has(m[1]!)) break;
    modifiers.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  const p: TsParameter = { name: '' };
  if (rest.startsWith('...')) {
    p.variadic = true;
    rest = rest.slice(3).trim();
  }
  const eq = indexOfTopLevel(rest, '=');
  let head = rest;
  if (eq >= 0 && rest[eq + 1] !== '>') {
    p.default = rest.slice(eq + 1).trim();
    head = rest.slice(0, eq).trim();
  }
  const colon = indexOfTopLevel(head, ':');
  let name = colon >= 0 ? head.slice(0, colon).trim() : head.trim();
  if (colon >= 0) p.type = collapseWhitespace(head.slice(colon + 1));
  if (name.endsWith('?')) {
    name = name.slice(0, -1).trim();
    p.optional = true;
  }
  if (p.default !== undefined) p.optional = true;
  p.name = name;
  if (modifiers.length) p.modifiers = modifiers;
  return p;
}

export interface TsCallable {
  /** Text before the parameter list: `User.login`, `function formatName`, `Registry<T>.get`. */
  head: string;
  /** Type parameters of the callable itself, as written (`<T>`), if any. */
  typeParameters?: string;
  parameters: TsParameter[];
  /** Return type annotation, if any. */
  returnType?: string;
  /** `(+1 overload)` / `(+2 overloads)` suffix count from tsserver hovers. */
  moreOverloads?: number;
}

/**
 * A callable signature → its parts; undefined when there is no parameter list. The parameter
 * list is the first `(` at depth 0 that follows the name (type parameters are skipped by depth).
 */
export function parseTsCallable(signature: string): TsCallable | undefined {
  let text = collapseWhitespace(signature);
  let moreOverloads: number | undefined;
  const ov = /\s*\(\+(\d+) overloads?\)\s*$/.exec(text);
  if (ov) {
    moreOverloads = Number(ov[1]);
    text = text.slice(0, ov.index);
  }
  const open = indexOfTopLevel(text, '(');
  if (open < 0) return undefined;
  const close = matchingClose(text, open);
  if (close < 0) return undefined;
  let head = text.slice(0, open).trim();
  let typeParameters: string | undefined;
  if (head.endsWith('>')) {
    const lt = findTypeParamsStart(head);
    if (lt > 0) {
      typeParameters = head.slice(lt);
      head = head.slice(0, lt).trim();
    }
  }
  const after = text.slice(close + 1).trim();
  let returnType: string | undefined;
  if (after.startsWith(':')) {
    returnType = after.slice(1).trim();
    const body = indexOfTopLevel(returnType, '{');
    // Source text continues into the body; a `{` after the type is the body, unless the type is an object literal.
    if (body > 0) returnType = returnType.slice(0, body).trim();
    returnType = returnType.replace(/;$/, '').trim();
  }
  const out: TsCallable = { head, parameters: parseTsParameters(text.slice(open + 1, close)) };
  if (typeParameters) out.typeParameters = typeParameters;
  if (returnType) out.returnType = returnType;
  if (moreOverloads !== undefined) out.moreOverloads = moreOverloads;
  return out;
}

/** Start of the trailing `<...>` of a head such as `firstOf<T>`, or -1. */
function findTypeParamsStart(head: string): number {
  let depth = 0;
  for (let i = head.length - 1; i >= 0; i--) {
    const ch = head[i];
    if (ch === '>' && head[i - 1] !== '=') depth++;
    else if (ch === '<') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
