// The pure parts of the symbol edits: a caller's text shaped like the file (line endings, indentation
// unit and depth) and the parse check that refuses text which does not parse, or escapes its place.
import { describe, expect, it } from 'vitest';

import { parseCheck, verbatimRows } from '../../src/service/editing/parse-check.js';
import { fileStyle, shapeText } from '../../src/service/editing/symbol-text.js';

describe('shapeText', () => {
  it("takes the file's tabs, CRLF and base indentation whatever the body uses", () => {
    const style = fileStyle('class A {\r\n\tm() {\r\n\t\treturn 1;\r\n\t}\r\n}\r\n');
    expect(style).toEqual({ eol: '\r\n', unit: '\t' });
    const body = '    n() {\n        return 2;\n    }\n';
    expect(shapeText(body, style, '\t', true)).toBe('n() {\r\n\t\treturn 2;\r\n\t}');
    expect(shapeText(body, style, '\t', false)).toBe('\tn() {\r\n\t\treturn 2;\r\n\t}');
  });
  it("turns a tab-indented body into the file's 4 spaces", () => {
    const style = fileStyle('class A:\n    def m(self):\n        return 1\n');
    expect(style).toEqual({ eol: '\n', unit: '    ' });
    expect(shapeText('def n(self):\n\tif x:\n\t\treturn 2\n', style, '    ', false)).toBe('    def n(self):\n        if x:\n            return 2');
  });
  it('text copied as get_symbol answers it (first line bare, the rest at its place) gets its place once', () => {
    const ts = fileStyle('class A {\n  m() {\n    return 1\n  }\n}\n');
    expect(shapeText('m() {\n    return 2\n  }', ts, '  ', true)).toBe('m() {\n    return 2\n  }');
    expect(shapeText('m() {\n    return 2\n  }', ts, '  ', false)).toBe('  m() {\n    return 2\n  }');
    const py = fileStyle('class A:\n    def m(self):\n        return 1\n');
    expect(shapeText('@cached\n    def n(self):\n        return 2', py, '    ', true)).toBe('@cached\n    def n(self):\n        return 2');
    // written at column 0: a body one level deep under a one-level base is not taken for a copied one
    expect(shapeText('def n(self):\n    return 2', py, '    ', true)).toBe('def n(self):\n        return 2');
    expect(shapeText('m() {\n  return 2\n}', ts, '  ', true)).toBe('m() {\n    return 2\n  }');
  });
  it('a doc comment copied with the declaration: its ` * ` lines do not make the unit one space', () => {
    const placed = [
      '    /**',
      '     * Pushes a handler on to the stack.',
      '     */',
      '    public function pushHandler(HandlerInterface $handler): self',
      '    {',
      '        array_unshift($this->handlers, $handler);',
      '',
      '        return $this;',
      '    }',
    ];
    const copied = [placed[0]!.trimStart(), ...placed.slice(1)].join('\n');
    expect(shapeText(copied, fileStyle(placed.join('\n')), '    ', true)).toBe(copied);
  });

  it('a header continued over lines keeps its alignment, and the unit is not read from it', () => {
    const py = fileStyle('class A:\n    def m(self):\n        return 1\n');
    expect(shapeText('def n(self,\n      x):\n    return x', py, '    ', false)).toBe('    def n(self,\n          x):\n        return x');
    expect(shapeText('def n(self,\n          x):\n        return x', py, '    ', true)).toBe('def n(self,\n          x):\n        return x');
    expect(fileStyle('def f(a,\n      b):\n    return (a +\n            b)\n').unit).toBe('    ');
  });
});

describe('string literals spanning lines', () => {
  const py = fileStyle('class A:\n    def m(self):\n        return 1\n');
  it('a string less indented than its line keeps its bytes; a docstring moves with the code', async () => {
    const body = 'def usage(self):\n    """Usage.\n\n    More.\n    """\n    return """\\\nprog [-h]\n  -v  verbose\n"""';
    const rows = await verbatimRows('a.py', body);
    expect([...rows].sort()).toEqual([6, 7, 8]);
    expect(shapeText(body, py, '    ', false, rows)).toBe(
      '    def usage(self):\n        """Usage.\n\n        More.\n        """\n        return """\\\nprog [-h]\n  -v  verbose\n"""',
    );
  });
  it('copied as get_symbol answers it, with a string at column 0: placed once, the string as it was', async () => {
    const body = 'm() {\n    const s = `a\nb`\n    return s\n  }';
    const ts = fileStyle('class A {\n  m() {\n    return 1\n  }\n}\n');
    expect(shapeText(body, ts, '  ', true, await verbatimRows('a.ts', body))).toBe(body);
  });
});

describe('parseCheck', () => {
  const cls = (method: string) => `class A {\n  ${method}\n}\n\nclass B {\n  k() {}\n}\n`;
  const region = (text: string, method: string) => [text.indexOf(method), text.indexOf(method) + method.length] as const;
  it('accepts a whole method, with non-ASCII text before it', async () => {
    const m = 'm(): string { return "é€😀"; }';
    const t = `// ünïcödé 😀\n${cls(m)}`;
    expect(await parseCheck('a.ts', t, ...region(t, m))).toBe('checked');
  });
  it('refuses a syntax error with its position', async () => {
    const m = 'm() { return (1; }';
    const t = cls(m);
    const err = await parseCheck('a.ts', t, ...region(t, m)).catch((e) => e);
    expect([err.code, err.details.line]).toEqual(['INVALID_INPUT', 2]);
  });
  it('refuses text that closes the class early and opens another', async () => {
    const m = 'm() {}\n}\nclass Evil {\n  n() {}';
    const t = cls(m);
    const err = await parseCheck('a.ts', t, ...region(t, m)).catch((e) => e);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain('class declaration at line 1');
  });
  it('a Python method followed by comments indented under its last statement (part of its block in the tree) is whole', async () => {
    const m = 'def m(self):\n        return 1';
    const t = `class A:\n    ${m}\n\n        # a trailing note, indented as the body\n\n    def k(self):\n        return 2\n`;
    expect(await parseCheck('a.py', t, ...region(t, m))).toBe('checked');
    const bad = 'def m(self):\n        return 1\n    x = (';
    const u = `class A:\n    ${bad}\n        # note\n`;
    expect((await parseCheck('a.py', u, ...region(u, bad)).catch((e) => e)).code).toBe('INVALID_INPUT');
  });
  it('a file with no grammar is not checked', async () => {
    expect(await parseCheck('notes.unknownext', 'x', 0, 1)).toBe('no_grammar');
  });
});
