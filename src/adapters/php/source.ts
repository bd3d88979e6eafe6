/**
 * PHP facts read from source text: the namespace and resolving short names to fully qualified
 * ones (the `use` imports come from the parse tree: model.ts phpUses), the contents of PHPDoc blocks (which block documents a declaration is
 * the parse tree's answer: docCommentAt), declaration headers (modifiers, parameters, return
 * type), and property initialisers.
 */
import type { ParamDescriptor } from '../../schema/descriptors.js';
import { matchingBracket, splitTopLevel } from '../brackets.js';

export function phpNamespace(lines: string[]): string | undefined {
  for (const line of lines) {
    const m = /^\s*namespace\s+([\w\\]+)\s*[;{]/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

const BUILTIN_TYPES = new Set([
  'int',
  'float',
  'string',
  'bool',
  'array',
  'object',
  'mixed',
  'void',
  'null',
  'callable',
  'iterable',
  'never',
  'false',
  'true',
  'self',
  'static',
  'parent',
  'resource',
  'integer',
  'boolean',
  'double',
  'list',
  'non-empty-string',
  'positive-int',
  'class-string',
]);

/** A class name as PHP resolves it in this file: leading `\` is absolute, else `use` aliases, else the namespace. */
export function resolvePhpClass(name: string, uses: Map<string, string>, namespace: string | undefined): string {
  if (name.startsWith('\\')) return name.slice(1);
  if (BUILTIN_TYPES.has(name.toLowerCase())) return name;
  const [head, ...rest] = name.split('\\');
  const imported = uses.get(head!);
  if (imported) return [imported, ...rest].join('\\');
  return namespace ? `${namespace}\\${name}` : name;
}

/** Resolves the class names inside `<...>` of a generic type: `BelongsToMany<Role>` → `BelongsToMany<App\Models\Role>`. */
export function resolveGenericArgs(type: string, uses: Map<string, string>, namespace: string | undefined): string {
  const open = type.indexOf('<');
  if (open < 0 || !type.endsWith('>')) return type;
  const args = splitTopLevel(type.slice(open + 1, -1)).map((a) =>
    /^\\?[A-Za-z_][\w\\]*$/.test(a) ? resolvePhpClass(a, uses, namespace) : resolveGenericArgs(a, uses, namespace),
  );
  return `${type.slice(0, open)}<${args.join(', ')}>`;
}

export interface PhpDoc {
  summary?: string;
  params: Map<string, { type?: string; description?: string }>;
  returns?: { type: string; description?: string };
  var?: string;
  tags: string[];
}

export function parsePhpDoc(block: string | undefined): PhpDoc {
  const doc: PhpDoc = { params: new Map(), tags: [] };
  if (!block) return doc;
  const body = block
    .replace(/^\s*\/\*\*+/, '')
    .replace(/\*+\/\s*$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, ''))
    .join('\n')
    .trim();
  const firstTag = body.search(/^@/m);
  const text = (firstTag < 0 ? body : body.slice(0, firstTag)).trim();
  const summary = text
    .split(/\n\s*\n/)[0]
    ?.replace(/\s*\n\s*/g, ' ')
    .trim();
  if (summary) doc.summary = summary;
  const tagText = firstTag < 0 ? '' : body.slice(firstTag);
  for (const m of tagText.matchAll(/^@([\w-]+)[ \t]*(.*(?:\n(?!@).*)*)/gm)) {
    const tag = m[1]!;
    const rest = m[2]!.replace(/\s*\n\s*/g, ' ').trim();
    doc.tags.push(tag);
    if (tag === 'param') {
      // The type may hold spaces inside `<>`/`{}` (`array<int, string> $topics`).
      const [type, ...after] = /^(\.\.\.)?&?\$/.test(rest) ? ['', rest] : splitTypeAndRest(rest);
      const p = /^(?:\.\.\.)?&?\$(\w+)\s*(.*)$/.exec(after.join(' '));
      if (p) doc.params.set(p[1]!, { ...(type ? { type } : {}), ...(p[2] ? { description: p[2] } : {}) });
    } else if (tag === 'return' || tag === 'returns') {
      const [type, ...d] = splitTypeAndRest(rest);
      if (type) doc.returns = { type, ...(d.length && d.join(' ') ? { description: d.join(' ') } : {}) };
    } else if (tag === 'var') {
      const [type] = splitTypeAndRest(rest);
      if (type) doc.var = type;
    }
  }
  return doc;
}

/** A PHPDoc type may contain spaces inside `<>`/`{}` (`array<string, int>`): split after it. */
function splitTypeAndRest(s: string): string[] {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ('<{('.includes(c)) depth++;
    else if ('>})'.includes(c)) depth--;
    else if (/\s/.test(c) && depth === 0)
      return [
        s.slice(0, i),
        ...s
          .slice(i + 1)
          .trim()
          .split(/\s+/),
      ];
  }
  return [s];
}

export interface PhpFunctionHeader {
  modifiers: string[];
  name: string;
  params: (ParamDescriptor & { promoted?: string; byRef?: boolean })[];
  returnType?: string;
  /** The header as written, whitespace collapsed, without the body. */
  text: string;
}

/** `public static function make(string ...$parts): static` from the line of the name on. */
export function parsePhpFunctionHeader(lines: string[], nameLine: number): PhpFunctionHeader | undefined {
  let text = '';
  for (let l = nameLine; l < lines.length && l < nameLine + 40; l++) {
    text += ' ' + (lines[l] ?? '').trim();
    const open = text.indexOf('(');
    if (open >= 0) {
      const close = matchingBracket(text, open);
      if (close >= 0 && /[{;]/.test(text.slice(close))) break;
      if (close >= 0 && l > nameLine + 1 && /\)\s*(:\s*[^{;]+)?$/.test(text) && /^\s*[{;]/.test(lines[l + 1] ?? '')) break;
    }
  }
  text = text
    .trim()
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .replace(/,\s*\)/g, ')');
  const m = /^((?:(?:public|protected|private|static|abstract|final|readonly)\s+)*)function\s+&?(\w+)\s*\(/.exec(text);
  if (!m) return undefined;
  const open = m[0].length - 1;
  const close = matchingBracket(text, open);
  if (close < 0) return undefined;
  const ret = /^\s*:\s*([^{;]+?)\s*(?:[{;]|$)/.exec(text.slice(close + 1))?.[1];
  return {
    modifiers: m[1]!.trim().split(/\s+/).filter(Boolean),
    name: m[2]!,
    params: parsePhpParams(text.slice(open + 1, close)),
    ...(ret ? { returnType: ret } : {}),
    text: text.slice(0, close + 1) + (ret ? `: ${ret}` : ''),
  };
}

export function parsePhpParams(list: string): PhpFunctionHeader['params'] {
  const out: PhpFunctionHeader['params'] = [];
  for (const raw of splitTopLevel(list, ',', false)) {
    const part = raw.replace(/#\[[^\]]*\]\s*/g, '').trim();
    const m = /^((?:(?:public|protected|private|readonly)\s+)*)([^$&.]*?)\s*(&)?\s*(\.\.\.)?\$(\w+)\s*(?:=\s*(.+))?$/.exec(part);
    if (!m) continue;
    const p: PhpFunctionHeader['params'][number] = { name: m[5]! };
    if (m[2]!.trim()) p.type = m[2]!.trim();
    if (m[6] !== undefined) Object.assign(p, { default: m[6].trim(), optional: true });
    if (m[4]) p.variadic = true;
    if (m[3]) p.byRef = true;
    const promoted = m[1]!.trim();
    if (promoted) p.promoted = promoted;
    out.push(p);
  }
  return out;
}

/** Modifiers written before the name on a property/constant/class line. */
export function modifiersBefore(line: string, name: string): string[] {
  const at = nameAt(line, name);
  const before = at >= 0 ? line.slice(0, at) : line;
  return [...before.matchAll(/\b(public|protected|private|static|abstract|final|readonly|var|const)\b/g)].map((m) => m[1]!);
}

/**
 * Where `name` stands as a whole word on `line`, or -1: a method `p` or `stat` must not be found inside the
 * `protected` or `static` before it (its modifiers were read from the text before that match: none).
 */
function nameAt(line: string, name: string): number {
  const word = /[\w$\x80-\uffff]/;
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
    if (!word.test(line[at - 1] ?? ' ') && !word.test(line[at + name.length] ?? ' ')) return at;
  }
  return -1;
}

/** Offset of the initialiser of `$name` (just after `=`) in a class body, or -1. */
export function propertyInitialiser(text: string, name: string): number {
  const re = new RegExp(String.raw`(?:public|protected|private|var|static|readonly)[\w\s?|\\]*\$${name}\s*=`, 'g');
  const m = re.exec(text);
  return m ? m.index + m[0].length : -1;
}

/** `snake_case` of a StudlyCase / camelCase word: `FullName` → `full_name`. */
export function snake(s: string): string {
  return s
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

const IRREGULAR: Record<string, string> = {
  person: 'people',
  man: 'men',
  woman: 'women',
  child: 'children',
  mouse: 'mice',
  foot: 'feet',
  tooth: 'teeth',
  goose: 'geese',
};
const UNCOUNTABLE = new Set(['equipment', 'information', 'rice', 'money', 'species', 'series', 'fish', 'sheep', 'data', 'news', 'media', 'metadata']);

/** English plural of a lower-case word, the common rules of Laravel's Str::plural. */
export function pluralize(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  if (IRREGULAR[word]) return IRREGULAR[word]!;
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + 'ies';
  if (/(s|x|z|ch|sh)$/.test(word)) return word + 'es';
  return word + 's';
}

/** Eloquent's default table: snake case with the last word pluralised (`UserProfile` → `user_profiles`). */
export function inferTableName(className: string): string {
  const parts = snake(className).split('_');
  parts[parts.length - 1] = pluralize(parts[parts.length - 1]!);
  return parts.join('_');
}

/** Removes `//`, `#` and `/* *\/` comments outside string literals. */
export function stripPhpComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (text.startsWith('//', i) || (c === '#' && text[i + 1] !== '[')) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
