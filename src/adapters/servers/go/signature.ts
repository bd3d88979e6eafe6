/**
 * Pure parsing of what gopls 0.16–0.22 sends: hover markdown (a ```go block with the declaration,
 * the doc comment, then for types an "Embedded fields" block and a method-set block, the parts
 * separated by `---` rules since 0.17, then a pkg.go.dev link) and Go function
 * signatures (`func (r *Router) Handle(path string, h Handler) error`).
 */
import type { ParamDescriptor, ReturnDescriptor } from '../../../schema/descriptors.js';
import { matchingBracket, splitTopLevel } from '../../brackets.js';

export interface GoHover {
  /** The first ```go block: the declaration as gopls prints it (size comments removed). */
  declaration?: string;
  /** Doc comment text (between the declaration block and the pkg.go.dev link). */
  doc?: string;
  /** `func (...) Name(...)` lines of the method-set block (types only), promoted ones included. */
  methodSet: string[];
}

const FENCE = /```go\n([\s\S]*?)\n```/g;

/** gopls appends `// size=16 (0x10), offset=0` to declarations: layout, not source. */
function stripLayoutComments(code: string): string {
  return code.replace(/[ \t]*\/\/ size=\d+[^\n]*/g, '');
}

export function parseGoHover(text: string | undefined): GoHover {
  const out: GoHover = { methodSet: [] };
  if (!text) return out;
  const blocks = [...text.matchAll(FENCE)];
  if (blocks.length === 0) return out;
  out.declaration = stripLayoutComments(blocks[0]![1]!).trim();
  const firstEnd = blocks[0]!.index! + blocks[0]![0].length;
  const nextStart = blocks.length > 1 ? blocks[1]!.index! : text.length;
  const doc = text
    .slice(firstEnd, nextStart)
    .replace(/\n*\[`[^`]*` on pkg\.go\.dev\]\([^)]*\)\s*$/, '')
    .trim()
    .replace(/^---\n+|\n+---$/g, '')
    .replace(/^---$/, '')
    .trim();
  if (doc) out.doc = doc;
  for (const b of blocks.slice(1)) {
    for (const line of b[1]!.split('\n')) if (line.startsWith('func ')) out.methodSet.push(line.trim());
  }
  return out;
}

/** The first paragraph of a doc comment. */
export function firstParagraph(doc: string | undefined): string | undefined {
  if (!doc) return undefined;
  const p = doc
    .split(/\n\s*\n/)[0]!
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return p || undefined;
}

/** `name Type` at top level → [name, Type]; a lone `Type` → [undefined, Type]. */
function splitNameType(part: string): [string | undefined, string] {
  const m = /^([A-Za-z_]\w*)\s+(\S[\s\S]*)$/.exec(part);
  // `func(T) U` or `chan int` are types, not `name Type`.
  if (m && !['func', 'chan', 'map', 'struct', 'interface'].includes(m[1]!)) return [m[1], m[2]!.trim()];
  return [undefined, part.trim()];
}

/**
 * A Go parameter list body (`a, b int, f func(T) U, rest ...string`) → descriptors. Go spells
 * either all parameters named or none; a bare identifier before a typed one shares its type.
 */
export function parseGoParams(list: string): ParamDescriptor[] {
  const parts = splitTopLevel(list);
  const split = parts.map(splitNameType);
  const named = split.some(([n]) => n !== undefined);
  const out: ParamDescriptor[] = [];
  let pending: string[] = [];
  for (const [name, type] of split) {
    if (named && name === undefined) {
      pending.push(type);
      continue;
    }
    for (const p of [...pending, ...(name !== undefined ? [name] : [])]) out.push(goParam(p, type));
    if (name === undefined) out.push(goParam('_', type));
    pending = [];
  }
  for (const p of pending) out.push({ name: p });
  return out;
}

function goParam(name: string, type: string): ParamDescriptor {
  return type.startsWith('...') ? { name, type, variadic: true } : { name, type };
}

export function parseGoResults(s: string): ReturnDescriptor[] {
  const t = s.trim();
  if (!t) return [];
  if (t.startsWith('(') && matchingBracket(t, 0) === t.length - 1) {
    // Unnamed results come back from parseGoParams as `_`.
    return parseGoParams(t.slice(1, -1)).map((p) => (p.name === '_' ? { type: p.type! } : { name: p.name, type: p.type ?? p.name }));
  }
  return [{ type: t }];
}

export interface GoFuncSignature {
  name: string;
  /** `*Router`, `Router`, `*Stack[T]`; undefined for functions. */
  receiver?: string;
  receiverName?: string;
  /** `T, U any` for generic functions. */
  typeParams?: string;
  parameters: ParamDescriptor[];
  returns: ReturnDescriptor[];
}

/** `func (r *Router) Handle(path string, h Handler) error` (also `func(x int) error` details). */
export function parseGoFuncSignature(sig: string): GoFuncSignature | undefined {
  let s = sig.trim();
  if (!s.startsWith('func')) return undefined;
  s = s.slice(4).trim();
  const out: GoFuncSignature = { name: '', parameters: [], returns: [] };
  if (s.startsWith('(')) {
    const close = matchingBracket(s, 0);
    if (close < 0) return undefined;
    const [rn, rt] = splitNameType(s.slice(1, close).trim());
    out.receiver = rt;
    if (rn) out.receiverName = rn;
    s = s.slice(close + 1).trim();
  }
  const nm = /^([A-Za-z_]\w*)?/.exec(s)!;
  out.name = nm[1] ?? '';
  s = s.slice(nm[0].length);
  if (s.startsWith('[')) {
    const close = matchingBracket(s, 0);
    if (close < 0) return undefined;
    out.typeParams = s.slice(1, close).trim();
    s = s.slice(close + 1);
  }
  if (!s.startsWith('(')) return undefined;
  const close = matchingBracket(s, 0);
  if (close < 0) return undefined;
  out.parameters = parseGoParams(s.slice(1, close));
  out.returns = parseGoResults(s.slice(close + 1));
  return out;
}

export interface GoStructField {
  name: string;
  type: string;
  tag?: string;
  embedded: boolean;
}

/**
 * One line of a struct body as written in source (`Prefix string \`json:"prefix"\``,
 * `A, B int`, `base.Logger`, `*Base`), comments removed. Returns [] for blank/comment lines.
 */
export function parseGoStructLine(line: string): GoStructField[] {
  let t = line.trim();
  let tag: string | undefined;
  const tagM = /\s*(`[^`]*`|"(?:[^"\\]|\\.)*")\s*(\/\/.*)?$/.exec(t);
  if (tagM) {
    tag = tagM[1]!.startsWith('`') ? tagM[1]!.slice(1, -1) : JSON.parse(tagM[1]!);
    t = t.slice(0, tagM.index).trim();
  }
  t = t.replace(/\s*\/\/.*$/, '').trim();
  if (!t || t === '}' || t.startsWith('/*')) return [];
  const m = /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+(\S.*)$/.exec(t);
  if (m && !/^[\w.]+$/.test(t)) {
    return m[1]!.split(',').map((n) => ({ name: n.trim(), type: m[2]!.trim(), ...(tag ? { tag } : {}), embedded: false }));
  }
  // Embedded: `pkg.Type`, `*Type`, `Type[T]`: the field name is the type's last identifier.
  const bare = t.replace(/^\*/, '').replace(/\[.*\]$/, '');
  const name = bare.split('.').pop()!;
  return [{ name, type: t, ...(tag ? { tag } : {}), embedded: true }];
}
