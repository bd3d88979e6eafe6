// Edits by symbol per language, on copies of fixtures/edit-{py,go,php,js} and the grammar-only Java
// file: a method in a class replaced (an empty diagnostics delta for a valid body), a planted
// undefined name listed as introduced with nothing written, a decorated or attributed declaration,
// a nested class's method, a top-level insert separated as the file's neighbours are, and
// delete_symbol refused while references remain. Java has no server: `diagnostics: not_checked`
// with the reason, and the parse check still refuses broken text. Go skips loudly without Go.
import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import { openScratch } from '../helpers/scratch.js';
import { applyChecked } from '../helpers/symbol-edits.js';

interface Case {
  fixture: string;
  file: string;
  method: { symbol: string; body: string; expect: string };
  planted: { symbol: string; body: string; name: string };
  decorated?: { symbol: string; body: string; expect: string; marker: string };
  nested?: { symbol: string; body: string; expect: string };
  insertAfter: { symbol: string; body: string; expect: string };
  referenced: { symbol: string; from: string };
}

const CASES: Case[] = [
  {
    fixture: 'edit-py',
    file: 'edits/shapes.py',
    method: {
      symbol: 'Circle.area',
      body: 'def area(self) -> float:\n\t"""The area."""\n\treturn math.pi * self.radius ** 2\n',
      expect: '    def area(self) -> float:\n        """The area."""\n        return math.pi * self.radius ** 2\n\n    @logged',
    },
    planted: { symbol: 'unused', body: 'def unused() -> int:\n    return undefined_thing + 1', name: 'undefined_thing' },
    decorated: {
      symbol: 'scale',
      body: '@functools.lru_cache(maxsize=None)\ndef scale(x: int) -> int:\n    return x * 3',
      expect: '@functools.lru_cache(maxsize=None)\ndef scale(x: int) -> int:\n    return x * 3\n',
      marker: '@functools.lru_cache',
    },
    nested: {
      symbol: 'Circle.Unit.size',
      body: 'def size(self) -> int:\n    return 2',
      expect: '    class Unit:\n        def size(self) -> int:\n            return 2\n',
    },
    insertAfter: { symbol: 'logged', body: 'def traced(fn):\n    return fn\n', expect: '    return fn\n\n\ndef traced(fn):\n    return fn\n\n\nclass Circle:' },
    referenced: { symbol: 'Circle', from: 'edits/main.py' },
  },
  {
    fixture: 'edit-go',
    file: 'shapes/shapes.go',
    method: {
      symbol: 'Circle.Area',
      body: 'func (c Circle) Area() float64 {\n    return math.Pi * c.Radius * c.Radius * 1\n}',
      expect: '// Area is the area of the circle.\nfunc (c Circle) Area() float64 {\n\treturn math.Pi * c.Radius * c.Radius * 1\n}\n',
    },
    planted: { symbol: 'unused', body: 'func unused() int {\n\treturn undefinedThing + 1\n}', name: 'undefinedThing' },
    insertAfter: {
      symbol: 'Scale',
      body: 'func Half(x int) int {\n\treturn x / 2\n}',
      expect: '\treturn x * 2\n}\n\nfunc Half(x int) int {\n\treturn x / 2\n}\n\nfunc unused',
    },
    referenced: { symbol: 'Scale', from: 'shapes/use.go' },
  },
  {
    fixture: 'edit-php',
    file: 'src/Circle.php',
    method: {
      symbol: 'Circle.area',
      body: 'public function area(): float\n{\n    return M_PI * $this->radius ** 2;\n}',
      expect: '    /** The area of the circle. */\n    public function area(): float\n    {\n        return M_PI * $this->radius ** 2;\n    }\n',
    },
    planted: {
      symbol: 'Circle.describe',
      body: '#[\\Deprecated]\npublic function describe(): string\n{\n    return $undefinedThing;\n}',
      name: 'undefinedThing',
    },
    decorated: {
      symbol: 'Circle.describe',
      body: '#[\\Deprecated]\npublic function describe(): string\n{\n    return "round";\n}',
      expect: '    #[\\Deprecated]\n    public function describe(): string\n    {\n        return "round";\n    }\n}',
      marker: '#[\\Deprecated]',
    },
    insertAfter: {
      symbol: 'Circle.area',
      body: 'public function diameter(): float\n{\n    return 2 * $this->radius;\n}',
      expect: '    }\n\n    public function diameter(): float\n    {\n        return 2 * $this->radius;\n    }\n\n    #[\\Deprecated]',
    },
    referenced: { symbol: 'Circle', from: 'src/Use.php' },
  },
  {
    fixture: 'edit-js',
    file: 'src/shapes.js',
    method: {
      symbol: 'Circle.area',
      body: 'area() {\n  return Math.PI * this.radius ** 2;\n}',
      expect: '  /** The area of the circle. */\n  area() {\n    return Math.PI * this.radius ** 2;\n  }\n',
    },
    planted: { symbol: 'scale', body: '/** @param {number} x */\nexport function scale(x) {\n  return x * undefinedThing;\n}', name: 'undefinedThing' },
    nested: { symbol: 'Circle.Unit.size', body: 'size() {\n  return 2;\n}', expect: '  static Unit = class {\n    size() {\n      return 2;\n    }\n  };' },
    insertAfter: {
      symbol: 'Circle.area',
      body: 'diameter() {\n  return 2 * this.radius;\n}',
      expect: '  }\n\n  diameter() {\n    return 2 * this.radius;\n  }\n\n  static Unit',
    },
    referenced: { symbol: 'Circle', from: 'src/use.js' },
  },
];

const EXTRA: Record<string, Record<string, string>> = {
  'edit-php': { 'src/Use.php': '<?php\n\nnamespace App;\n\nfunction report(): float\n{\n    return (new Circle(2.0))->area();\n}\n' },
  'edit-js': { 'src/use.js': "import { Circle } from './shapes.js';\n\nexport const area = new Circle(2).area();\n" },
};

for (const c of CASES) {
  describe.runIf(c.fixture !== 'edit-go' || goAvailable)(`symbol edits: ${c.fixture}`, async () => {
    const fx = await openScratch(c.fixture, EXTRA[c.fixture] ?? {});

    it("a method in a class: empty delta for a valid body, written in the file's style, the new id answered", async () => {
      const { r, after } = await applyChecked(fx, 'replace_symbol_body', { symbol: c.method.symbol, body: c.method.body }, c.file);
      expect([r.diagnostics, r.introduced, r.parse]).toEqual(['checked', [], 'checked']);
      expect(after).toContain(c.method.expect);
      expect(r.new_symbols.length).toBeGreaterThan(0);
    });

    it('a planted undefined name: an introduced error naming it; nothing written', async () => {
      const before = c.file && fx.read(c.file);
      const r = await fx.run('replace_symbol_body', { symbol: c.planted.symbol, body: c.planted.body });
      const errors = r.introduced.filter((d: { severity: string }) => d.severity === 'error');
      expect(errors.some((d: { message: string }) => d.message.includes(c.planted.name))).toBe(true);
      expect(fx.read(c.file)).toBe(before);
      expect((await fx.runError('replace_symbol_body', { symbol: c.planted.symbol, body: c.planted.body, apply: true })).code).toBe('INVALID_INPUT');
      expect(fx.read(c.file)).toBe(before);
    });

    it.runIf(c.decorated)('a decorated or attributed declaration: the decorator goes with it, once', async () => {
      const d = c.decorated!;
      const { after } = await applyChecked(fx, 'replace_symbol_body', { symbol: d.symbol, body: d.body }, c.file);
      expect(after).toContain(d.expect);
      expect(after.split(d.marker)).toHaveLength(2);
    });

    it.runIf(c.nested)("a nested class's method", async () => {
      const n = c.nested!;
      const { after } = await applyChecked(fx, 'replace_symbol_body', { symbol: n.symbol, body: n.body }, c.file);
      expect(after).toContain(n.expect);
    });

    it('insert after: indented and separated as the neighbours are', async () => {
      const { after, r } = await applyChecked(fx, 'insert_after_symbol', { symbol: c.insertAfter.symbol, body: c.insertAfter.body }, c.file);
      expect(after).toContain(c.insertAfter.expect);
      expect(r.introduced).toEqual([]);
    });

    it('delete_symbol of a referenced symbol: refused with the references', async () => {
      const before = fx.read(c.file);
      const err = await fx.runError('delete_symbol', { symbol: c.referenced.symbol, apply: true });
      expect(err.code).toBe('INVALID_INPUT');
      expect((err.details?.references as { file: string }[]).map((x) => x.file)).toContain(c.referenced.from);
      expect(fx.read(c.file)).toBe(before);
    });
  });
}

if (!goAvailable) describe('symbol edits: edit-go', () => it.skip('needs Go and gopls (test/helpers/go.ts): not installed here', () => {}));

describe('symbol edits: a language with no server (Java, grammar only)', async () => {
  const fx = await openScratch('grammar-only');
  const file = 'java/com/example/InvoiceService.java';

  it('the diff with diagnostics not_checked and the reason; the apply writes it', async () => {
    const { r, after } = await applyChecked(
      fx,
      'replace_symbol_body',
      // no server: the file is unchecked, which an apply must accept in so many words
      { symbol: 'InvoiceService.totalOf', body: 'public long totalOf(Invoice invoice) {\n  return 0;\n}', accept_unchecked: true },
      file,
    );
    expect([r.diagnostics, r.parse]).toEqual(['not_checked', 'checked']);
    expect(r.unchecked).toEqual([{ file, reason: expect.stringContaining('SERVER_NOT_INSTALLED') }]);
    expect(r.diagnostics_reason).toContain('SERVER_NOT_INSTALLED');
    expect(after).toContain("    /** The sum of the invoice's line amounts. */\n    public long totalOf(Invoice invoice) {\n        return 0;\n    }\n");
  });

  it('broken text is refused by the parse check', async () => {
    const err = await fx.runError('insert_after_symbol', { symbol: 'InvoiceService.totalOf', body: 'public long more( {' });
    expect(err.code).toBe('INVALID_INPUT');
  });

  it('delete: references cannot be checked without a server, so refused unless force', async () => {
    const before = fx.read(file);
    const err = await fx.runError('delete_symbol', { symbol: 'InvoiceService.Status', apply: true });
    expect(err.code).toBe('SERVER_NOT_INSTALLED');
    expect(fx.read(file)).toBe(before);
    const { after } = await applyChecked(fx, 'delete_symbol', { symbol: 'InvoiceService.Status', force: true, accept_unchecked: true }, file);
    expect(after).not.toContain('enum Status');
  });
});
