/**
 * tsserver hovers (through typescript-language-server 5.3) → their parts. The hover is a
 * ```typescript block holding the display signature, prefixed by the symbol kind in parentheses for
 * members (`(method) User.login(when?: Date): number`, `(property) User.id: number`, `(getter) …`,
 * `(enum member) Color.Red = "red"`) or by a keyword otherwise (`function f(…)`, `class User`,
 * `constructor User(…): User`, `type T = …`, `namespace A.B`), followed by the JSDoc text and its tags
 * rendered as `*@param* \`when\` — The login time.` and `*@returns* — The new login count.`
 */
import { splitHoverMarkdown } from '../../../schema/convert/hover-text.js';
import { collapseWhitespace } from '../../../util/whitespace.js';
import { indexOfTopLevel } from '../../typescript/source-text.js';

export interface TsHoverTag {
  name: string;
  text: string;
}

export interface TsHover {
  /** `method`, `property`, `getter`, `enum member`, `function`, `class`, `constructor`, `const`… */
  declKind?: string;
  /** The display text without the kind prefix, whitespace collapsed. */
  display: string;
  /** JSDoc description (without tags); undefined when empty. */
  description?: string;
  /** `@param` texts by parameter name. */
  params: Record<string, string>;
  /** `@returns` / `@return` text. */
  returns?: string;
  /** Every tag, in order (param and returns included). */
  tags: TsHoverTag[];
}

const KEYWORD_KINDS = ['function', 'class', 'interface', 'type', 'enum', 'namespace', 'module', 'constructor', 'const', 'let', 'var'];

export function fromTsHover(text: string): TsHover {
  const { code, prose } = splitHoverMarkdown(text);
  const first = collapseWhitespace(code[0] ?? '');
  let declKind: string | undefined;
  let display = first;
  const paren = /^\(([\w ]+)\)\s*/.exec(first);
  if (paren) {
    declKind = paren[1];
    display = first.slice(paren[0].length);
  } else {
    const kw = /^(\w+)\s+/.exec(first);
    if (kw && KEYWORD_KINDS.includes(kw[1]!)) {
      declKind = kw[1];
      display = first.slice(kw[0].length);
    }
  }
  const out: TsHover = { display, params: {}, tags: [] };
  if (declKind) out.declKind = declKind;
  const segments = prose.split(/\n(?=\*@[\w-]+\*)/);
  const description = segments[0]!.startsWith('*@') ? '' : segments.shift()!.trim();
  if (description) out.description = description;
  for (const seg of segments) {
    const m = /^\*@([\w-]+)\*\s*([\s\S]*)$/.exec(seg.trim());
    if (!m) continue;
    const name = m[1]!;
    let body = m[2]!.trim();
    if (name === 'param') {
      const pm = /^`([^`]+)`\s*(?:—\s*)?([\s\S]*)$/.exec(body);
      if (pm) {
        out.params[pm[1]!] = pm[2]!.trim();
        out.tags.push({ name, text: `${pm[1]} ${pm[2]!.trim()}`.trim() });
        continue;
      }
    }
    body = body.replace(/^—\s*/, '').trim();
    if (name === 'returns' || name === 'return') out.returns = body;
    out.tags.push({ name, text: body });
  }
  return out;
}

/**
 * `User.nickname?: string | undefined` → name `nickname`, optional, type `string` (the
 * `| undefined` tsserver adds to optional members under strictNullChecks is dropped).
 * `Color.Red = "red"` → value `"red"`.
 */
export function parseTsMemberDisplay(display: string): { name: string; type?: string; optional?: boolean; value?: string } {
  const colon = indexOfTopLevel(display, ':');
  const eq = indexOfTopLevel(display, '=');
  const cut = colon >= 0 ? colon : eq;
  let name = (cut >= 0 ? display.slice(0, cut) : display).trim();
  const out: { name: string; type?: string; optional?: boolean; value?: string } = { name };
  if (name.endsWith('?')) {
    out.optional = true;
    name = name.slice(0, -1);
  }
  const dot = lastTopLevelDot(name);
  out.name = dot >= 0 ? name.slice(dot + 1) : name;
  if (colon >= 0) {
    let type = display.slice(colon + 1).trim();
    if (out.optional) type = type.replace(/\s*\|\s*undefined$/, '');
    out.type = type;
  } else if (eq >= 0) {
    out.value = display.slice(eq + 1).trim();
  }
  return out;
}

function lastTopLevelDot(name: string): number {
  let found = -1;
  let from = 0;
  for (;;) {
    const i = indexOfTopLevel(name, '.', from);
    if (i < 0) return found;
    found = i;
    from = i + 1;
  }
}
