/**
 * Members a class's PHPDoc declares (intelephense lists them in documentSymbol like real ones):
 * `@method [static] [Type] name(params) [description]` as a method with its parameters, and
 * `@property[-read|-write] [Type] $name [description]` as a property. A tag spans from its `@` to
 * the end of its line; a parameter spans its own text, selected at its `$name`.
 */
import type { SyntaxSymbol } from '../language-profile.js';
import { K, phpSymbol } from './symbols.js';

const METHOD = /@method\s+(?:static\s+)?(?:[^\s(]+\s+)?([A-Za-z_]\w*)\s*\(/;
const PROPERTY = /@property(?:-read|-write)?\s+(?:[^\s$]+\s+)?(\$[A-Za-z_]\w*)/;

/** `(a, b = [1, 2], c)` → the parameters' [start, end) in `text` from `open` (the index after `(`), at depth 0. */
function parameterSpans(text: string, open: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let depth = 0;
  let from = open;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if ((c === ',' || c === ')') && depth === 0) {
      out.push({ start: from, end: i });
      from = i + 1;
      if (c === ')') break;
    }
  }
  return out;
}

function methodTag(line: string, at: number): SyntaxSymbol | undefined {
  const m = METHOD.exec(line);
  if (!m) return undefined;
  const tagStart = at + m.index;
  const name = at + m.index + m[0].lastIndexOf(m[1]!);
  const params: SyntaxSymbol[] = [];
  for (const span of parameterSpans(line, m.index + m[0].length)) {
    const raw = line.slice(span.start, span.end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const dollar = /\$[A-Za-z_]\w*/.exec(text);
    if (!dollar) continue;
    const start = at + span.start + lead;
    params.push(phpSymbol(dollar[0], 13, start, start + text.length, start + dollar.index));
  }
  return phpSymbol(m[1]!, K.method, tagStart, at + line.trimEnd().length, name, params);
}

/** The members a class-like declaration's doc comment (its text, starting at `offset` in the file) declares. */
export function docTagMembers(comment: string, offset: number): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  let at = 0;
  for (const line of comment.split('\n')) {
    const method = line.includes('@method') ? methodTag(line, offset + at) : undefined;
    if (method) out.push(method);
    const p = line.includes('@property') ? PROPERTY.exec(line) : null;
    if (p)
      out.push(phpSymbol(p[1]!, K.property, offset + at + p.index, offset + at + line.trimEnd().length, offset + at + p.index + p[0].length - p[1]!.length));
    at += line.length + 1;
  }
  return out;
}
