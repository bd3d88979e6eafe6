/**
 * Pure parsing for Python: pyright 1.1 hovers (`(method) def f(\n    self: Self@User,\n    x: int\n) -> str`
 * then `---` and the docstring rendered as markdown), `def` headers and docstrings read from
 * source (Google, NumPy and Sphinx parameter sections), decorators, visibility by naming.
 */
import type { ParamDescriptor } from '../../schema/descriptors.js';
import { matchingBracket, splitTopLevel } from '../brackets.js';

export interface PyHover {
  /** `method` | `function` | `property` | `variable` | `class` | `parameter` | `constant` ... */
  label?: string;
  /** The code line(s) of the ```python block, without the `(label) ` prefix. */
  code?: string;
  /** Markdown docstring after `---`. */
  doc?: string;
}

export function parsePyHover(text: string | undefined): PyHover {
  if (!text) return {};
  const m = /```python\n([\s\S]*?)\n```/.exec(text);
  if (!m) return {};
  const out: PyHover = {};
  let code = m[1]!.trim();
  const lm = /^\((\w+)\)\s+/.exec(code);
  if (lm) {
    out.label = lm[1];
    code = code.slice(lm[0].length);
  } else if (code.startsWith('class ')) out.label = 'class';
  out.code = code;
  const rest = text
    .slice(m.index + m[0].length)
    .replace(/^\s*---\s*/, '')
    .trim();
  if (rest) out.doc = rest;
  return out;
}

export interface PyDef {
  name: string;
  isAsync: boolean;
  params: ParamDescriptor[];
  returns?: string;
}

/** `def f(self, x: int = 1, *args, **kw) -> str` (hover or source header, one or many lines). */
export function parsePyDef(code: string): PyDef | undefined {
  const s = code.replace(/\s*\n\s*/g, ' ').trim();
  const m = /^(async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(s);
  if (!m) return undefined;
  const open = m[0].length - 1;
  const close = matchingBracket(s, open);
  if (close < 0) return undefined;
  const params = parsePyParams(s.slice(open + 1, close));
  const ret = /^\s*->\s*(.+?)\s*:?\s*$/.exec(s.slice(close + 1))?.[1];
  return { name: m[2]!, isAsync: !!m[1], params, ...(ret ? { returns: ret } : {}) };
}

/**
 * One parameter list body. `/` and bare `*` markers are dropped. `*args` and `**kwargs` keep their
 * stars in `name` (both are `variadic`; the stars tell positional from keyword collection, as in
 * Python's own spelling); a description keyed by the bare name still finds them.
 */
export function parsePyParams(list: string): ParamDescriptor[] {
  const out: ParamDescriptor[] = [];
  for (const part of joinLambdas(splitTopLevel(list, ',', false))) {
    if (part === '/' || part === '*' || part === '') continue;
    const eq = topLevelIndex(part, '=');
    const head = (eq >= 0 ? part.slice(0, eq) : part).trim();
    const def = eq >= 0 ? part.slice(eq + 1).trim() : undefined;
    const colon = topLevelIndex(head, ':');
    const name = (colon >= 0 ? head.slice(0, colon) : head).trim();
    const type = colon >= 0 ? head.slice(colon + 1).trim() : undefined;
    const variadic = name.startsWith('*');
    const p: ParamDescriptor = { name };
    if (type) p.type = type;
    if (def !== undefined) Object.assign(p, { default: def, optional: true });
    if (variadic) p.variadic = true;
    out.push(p);
  }
  return out;
}

/**
 * A lambda default's own parameters are split on their commas (`key=lambda a, b: a`): glue the
 * pieces back until the lambda's `:`, which ends its parameter list. The lambda body itself ends
 * at the next top-level comma, as in the grammar.
 */
function joinLambdas(parts: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i]!;
    const eq = topLevelIndex(part, '=');
    const def = eq >= 0 ? part.slice(eq + 1).trim() : '';
    if (/^lambda\b/.test(def)) {
      while (topLevelIndex(lambdaParams(part), ':') < 0 && i + 1 < parts.length) part = `${part}, ${parts[++i]!}`;
    }
    out.push(part);
  }
  return out;
}

/** The text after the first `lambda` keyword of a part (its parameters, then `:` and the body). */
function lambdaParams(part: string): string {
  const m = /\blambda\b/.exec(part);
  return m ? part.slice(m.index + m[0].length) : '';
}

/** The parameter name without its `*` / `**` (docstring sections name `*args` either way). */
export function bareParamName(name: string): string {
  return name.replace(/^\*+/, '');
}

/** Index of `ch` outside brackets and quotes; -1 if none. */
function topLevelIndex(s: string, ch: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ch && depth === 0) return i;
  }
  return -1;
}

/**
 * The `def`/`class` header starting at `line` (0-based), joined across lines up to the `:` that
 * ends it; [text, lastLine].
 */
export function headerAt(lines: string[], line: number): [string, number] {
  let text = '';
  let depth = 0;
  for (let l = line; l < lines.length && l < line + 60; l++) {
    const t = (lines[l] ?? '').replace(/\s+#.*$/, '');
    text += (text ? ' ' : '') + t.trim();
    for (const c of t) {
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
    }
    if (depth <= 0 && /:\s*$/.test(t)) return [text, l];
  }
  return [text, line];
}

/**
 * The docstring of the body starting after `headerEnd` (0-based): the first statement when it is a
 * string literal (any prefix, triple or single quotes), raw, dedented. The one Python docstring
 * reader: the catalog's summaries and the descriptors' docs both come from here.
 */
export function docstringAfter(lines: string[], headerEnd: number, bodyEnd: number): string | undefined {
  let l = headerEnd + 1;
  while (l <= bodyEnd && (lines[l] ?? '').trim() === '') l++;
  const first = (lines[l] ?? '').trim();
  const m = /^[rRuUbB]{0,2}("""|'''|"|')/.exec(first);
  if (!m) return undefined;
  const q = m[1]!;
  const rest = first.slice(m[0].length);
  if (rest.includes(q)) return rest.slice(0, rest.indexOf(q)).trim() || undefined;
  if (q.length === 1) return undefined;
  const body: string[] = [rest];
  for (let k = l + 1; k <= bodyEnd + 1 && k < lines.length; k++) {
    const t = lines[k] ?? '';
    const at = t.indexOf(q);
    if (at >= 0) {
      body.push(t.slice(0, at));
      break;
    }
    body.push(t);
  }
  return dedent(body).trim() || undefined;
}

/**
 * Per line of a file, computed once when first asked (the catalog reads a docstring for each of a
 * module's hundreds of symbols, and each read scanned up to 60 lines with a pattern): the bracket
 * depth change of its code — the text before a ` #` comment — and whether that code ends with `:`.
 * The same reading as headerAt's, kept beside the file's lines.
 */
interface LineFacts {
  delta: Int32Array;
  /** 0: not read yet; 1: ends with `:`; 2: does not. */
  colon: Uint8Array;
}
const lineFacts = new WeakMap<readonly string[], LineFacts>();

function factsAt(lines: readonly string[], l: number): { delta: number; colon: boolean } {
  let f = lineFacts.get(lines);
  if (!f) lineFacts.set(lines, (f = { delta: new Int32Array(lines.length), colon: new Uint8Array(lines.length) }));
  if (f.colon[l] === 0) {
    const line = lines[l] ?? '';
    const t = line.includes('#') ? line.replace(/\s+#.*$/, '') : line;
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 40 || c === 91 || c === 123)
        depth++; // ( [ {
      else if (c === 41 || c === 93 || c === 125) depth--; // ) ] }
    }
    f.delta[l] = depth;
    f.colon[l] = /:\s*$/.test(t) ? 1 : 2;
  }
  return { delta: f.delta[l]!, colon: f.colon[l] === 1 };
}

/** headerAt's last line, from the file's line facts (no text joined). */
function headerEndAt(lines: readonly string[], line: number): number {
  let depth = 0;
  for (let l = line; l < lines.length && l < line + 60; l++) {
    const f = factsAt(lines, l);
    depth += f.delta;
    if (depth <= 0 && f.colon) return l;
  }
  return line;
}

/** The docstring of the `def` / `class` whose name is on `selectionLine` and whose body ends at `endLine`. */
export function pythonDocstringOf(lines: string[], selectionLine: number, endLine: number): string | undefined {
  const headerEnd = headerEndAt(lines, selectionLine);
  if (headerEnd <= endLine) return docstringAfter(lines, headerEnd, endLine);
  // a header ending past the declaration is the next one's (`attr: int = 3` then `def m(self):`), and
  // so is its docstring: an attribute's own docstring is a string statement right below a one-line
  // declaration (not the next item of a list or tuple the declaration's line opens)
  const below = (lines[selectionLine + 1] ?? '').trim();
  const stringStatement = below.startsWith('"""') || below.startsWith("'''") || below.endsWith('"') || below.endsWith("'");
  // a line closes every bracket it opens: a one-line statement, as far as brackets tell
  if (!stringStatement || factsAt(lines, selectionLine).delta > 0) return undefined;
  return docstringAfter(lines, selectionLine, endLine);
}

function dedent(lines: string[]): string {
  const indents = lines
    .slice(1)
    .filter((x) => x.trim())
    .map((x) => /^\s*/.exec(x)![0].length);
  const min = indents.length ? Math.min(...indents) : 0;
  return [lines[0]!.trim(), ...lines.slice(1).map((x) => x.slice(min).trimEnd())].join('\n');
}

export function firstParagraphPy(doc: string | undefined): string | undefined {
  if (!doc) return undefined;
  const p = doc
    .split(/\n\s*\n/)[0]!
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return p || undefined;
}

export interface DocSections {
  params: Map<string, string>;
  returns?: string;
}

/** Parameter and return descriptions from Google (`Args:`), NumPy (`Parameters\n---`) or Sphinx (`:param x:`) docstrings. */
export function docSections(doc: string | undefined): DocSections {
  const out: DocSections = { params: new Map() };
  if (!doc) return out;
  const lines = doc.split('\n');
  for (const line of lines) {
    const sp = /^\s*:param\s+(?:[\w[\], .]+\s+)?(\w+):\s*(.*)$/.exec(line);
    if (sp) out.params.set(sp[1]!, sp[2]!.trim());
    const sr = /^\s*:returns?:\s*(.*)$/.exec(line);
    if (sr) out.returns = sr[1]!.trim();
  }
  let section: 'params' | 'returns' | undefined;
  let itemIndent = -1;
  let last: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    const indent = line.length - line.trimStart().length;
    const numpyHeader = /^-{3,}$/.test((lines[i + 1] ?? '').trim());
    const header = /^(Args|Arguments|Parameters|Params|Returns|Return|Yields)(:?)$/.exec(t);
    if (header && (header[2] === ':' || numpyHeader)) {
      section = /^Ret|^Yie/.test(header[1]!) ? 'returns' : 'params';
      itemIndent = -1;
      last = undefined;
      if (numpyHeader) i++;
      continue;
    }
    if (!t || !section) continue;
    if (itemIndent < 0) itemIndent = indent;
    if (indent < itemIndent) {
      section = undefined;
      continue;
    }
    if (section === 'returns') {
      // Google `Returns:\n    text`, NumPy `Returns\n-------\ntype\n    text`.
      out.returns = indent === itemIndent && /^[\w[\], .|]+$/.test(t) && lines[i + 1]?.trim() ? out.returns : `${out.returns ?? ''} ${t}`.trim();
      continue;
    }
    const item = indent === itemIndent ? /^(\*{0,2}\w+)(\s*\([^)]*\))?(\s*):\s*(.*)$/.exec(t) : null;
    if (item) {
      last = item[1]!.replace(/^\*+/, '');
      // NumPy spells `name : type` with the description on the next lines.
      out.params.set(last, item[3] ? '' : item[4]!.trim());
    } else if (last) out.params.set(last, `${out.params.get(last)} ${t}`.trim());
  }
  return out;
}

/** Naming conventions: `__x__` special (public), `__x` private (name-mangled), `_x` protected. */
export function pyVisibility(name: string): { visibility: 'public' | 'protected' | 'private'; dunder: boolean } {
  if (/^__\w+__$/.test(name)) return { visibility: 'public', dunder: true };
  if (name.startsWith('__')) return { visibility: 'private', dunder: false };
  if (name.startsWith('_')) return { visibility: 'protected', dunder: false };
  return { visibility: 'public', dunder: false };
}

/** `name: T = v` / `name = v` / `self.name: T = v` at the start of a line → parts. */
export function parseAssignment(line: string): { name: string; type?: string; default?: string; self: boolean } | undefined {
  const m = /^\s*(self\.)?([A-Za-z_]\w*)\s*(?::\s*([^=]+?))?\s*(?:=\s*(.+?))?\s*(#.*)?$/.exec(line);
  if (!m || (m[3] === undefined && m[4] === undefined)) return undefined;
  return { name: m[2]!, self: !!m[1], ...(m[3] ? { type: m[3].trim() } : {}), ...(m[4] !== undefined ? { default: m[4].trim() } : {}) };
}

/** `__all__ = ["A", "B"]` in module text, when present. */
export function dunderAll(text: string): string[] | undefined {
  const m = /^__all__\s*(?::[^=]*)?=\s*[[(]([\s\S]*?)[\])]/m.exec(text);
  if (!m) return undefined;
  return [...m[1]!.matchAll(/["']([^"']+)["']/g)].map((x) => x[1]!);
}
