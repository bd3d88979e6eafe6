/**
 * A small reader for PHP array literals (`['a', 'b' => 'c', 'd' => X::class]`, `array(...)`),
 * enough for Eloquent's `$fillable`, `$casts` and `casts(): array { return [...]; }`. Comments,
 * both quote styles, nesting and trailing commas are handled; anything else becomes an `expr`
 * holding its source text.
 */

export type PhpValue = string | number | boolean | null | PhpArray | PhpExpr;
export interface PhpArray {
  kind: 'array';
  items: { key?: PhpValue; value: PhpValue }[];
}
export interface PhpExpr {
  kind: 'expr';
  text: string;
}

class Reader {
  pos: number;
  constructor(
    readonly src: string,
    start: number,
  ) {
    this.pos = start;
  }

  skip(): void {
    for (;;) {
      const s = this.src;
      while (this.pos < s.length && /\s/.test(s[this.pos]!)) this.pos++;
      if (s.startsWith('//', this.pos) || (s[this.pos] === '#' && s[this.pos + 1] !== '[')) {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
      } else if (s.startsWith('/*', this.pos)) {
        const end = s.indexOf('*/', this.pos + 2);
        this.pos = end < 0 ? s.length : end + 2;
      } else return;
    }
  }

  peek(text: string): boolean {
    this.skip();
    return this.src.startsWith(text, this.pos);
  }

  eat(text: string): boolean {
    if (!this.peek(text)) return false;
    this.pos += text.length;
    return true;
  }

  value(): PhpValue {
    this.skip();
    const s = this.src;
    const c = s[this.pos];
    if (c === '[') {
      this.pos++;
      return this.items(']');
    }
    if (/^array\s*\(/i.test(s.slice(this.pos, this.pos + 10))) {
      this.pos = s.indexOf('(', this.pos) + 1;
      return this.items(')');
    }
    if (c === "'" || c === '"') return this.string(c);
    return this.expr();
  }

  items(close: string): PhpArray {
    const out: PhpArray = { kind: 'array', items: [] };
    while (!this.eat(close)) {
      if (this.pos >= this.src.length) break;
      const first = this.value();
      if (this.eat('=>')) out.items.push({ key: first, value: this.value() });
      else out.items.push({ value: first });
      if (!this.eat(',') && !this.peek(close)) break;
    }
    return out;
  }

  string(q: string): string {
    const s = this.src;
    let out = '';
    this.pos++;
    while (this.pos < s.length && s[this.pos] !== q) {
      if (s[this.pos] === '\\' && (s[this.pos + 1] === q || s[this.pos + 1] === '\\')) this.pos++;
      out += s[this.pos++];
    }
    this.pos++;
    return out;
  }

  /** Everything up to the next top-level `,`, `=>`, `]`, `)` or `;`. */
  expr(): PhpValue {
    const s = this.src;
    const start = this.pos;
    let depth = 0;
    // `fn ($x) => ...` owns its first `=>`; it is not an array key separator.
    let arrow = /^(static\s+)?fn\s*\(/.test(s.slice(start, start + 20));
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (c === "'" || c === '"') {
        this.string(c);
        continue;
      }
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && arrow && s.startsWith('=>', this.pos)) {
        arrow = false;
        this.pos += 2;
        continue;
      } else if (depth === 0 && (c === ',' || c === ';' || s.startsWith('=>', this.pos))) break;
      this.pos++;
    }
    const text = s.slice(start, this.pos).trim();
    if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
    if (/^true$/i.test(text)) return true;
    if (/^false$/i.test(text)) return false;
    if (/^null$/i.test(text)) return null;
    return { kind: 'expr', text };
  }
}

/** Reads one PHP value starting at `start` (whitespace and comments skipped first). */
export function readPhpValue(src: string, start: number): PhpValue {
  return new Reader(src, start).value();
}

/**
 * The arguments of a call, from just after its `(` to the matching `)`. PHP 8 named arguments
 * (`name: 'x'`) come back under their name; positional ones by index.
 */
export function readPhpArguments(src: string, start: number): { positional: PhpValue[]; named: Map<string, PhpValue> } {
  const out = { positional: [] as PhpValue[], named: new Map<string, PhpValue>() };
  for (const { value } of new Reader(src, start).items(')').items) {
    const named = value && typeof value === 'object' && value.kind === 'expr' ? /^([A-Za-z_]\w*)\s*:(?!:)\s*([\s\S]+)$/.exec(value.text) : null;
    if (named) out.named.set(named[1]!, readPhpValue(named[2]!, 0));
    else out.positional.push(value);
  }
  return out;
}

/** A value as text: strings as is, `X::class` and other expressions as written. */
export function phpValueText(v: PhpValue): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return v.kind === 'expr' ? v.text : `[${v.items.map((i) => phpValueText(i.value)).join(', ')}]`;
  return String(v);
}

/** List values of an array (`['a', 'b']`) as strings; keyed entries contribute their keys. */
export function phpStringList(v: PhpValue | undefined): string[] {
  if (!v || typeof v !== 'object' || v.kind !== 'array') return [];
  return v.items.map((i) => (i.key !== undefined ? phpValueText(i.key) : phpValueText(i.value)));
}

/** Keyed entries of an array as a string map (`['a' => 'datetime', 'b' => X::class]`). */
export function phpStringMap(v: PhpValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v || typeof v !== 'object' || v.kind !== 'array') return out;
  for (const i of v.items) if (i.key !== undefined) out[phpValueText(i.key)] = phpValueText(i.value);
  return out;
}
