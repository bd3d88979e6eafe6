/**
 * Chunks cut from parse trees and catalog ranges: a long function is cut between the statements of
 * its body (never inside a compound statement: Python's `else`, a brace `if … else`); a class chunk
 * is its header, fields and member signatures, its methods' bodies left out (each method is a
 * chunk of its own), while its citation and content_sha256 stay those of its lines; Markdown
 * sections end at the next heading (fenced headings do not count) and a long section is cut at
 * paragraph breaks within the size budget.
 */
import { describe, expect, it } from 'vitest';

import { chunkSourceFile } from '../../src/chunks/chunker.js';
import { chunkMarkdown, DOC_MAX_CHARS, DOC_MAX_LINES } from '../../src/chunks/doc-chunks.js';
import { contentSha256, linesText } from '../../src/chunks/ids.js';
import { splitRange } from '../../src/chunks/split.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

/** A catalog symbol over lines [line, end_line] of `file` (what a server's documentSymbol gives). */
const sym = catalogSymbol;

describe('function_split between the statements of the parse tree', () => {
  it('Python: never before an else; every piece starts at a statement of the body', async () => {
    const body: string[] = [];
    for (let i = 0; i < 30; i++) body.push(`    if x > ${i}:`, `        y = ${i}`, '    else:', `        y = -${i}`);
    const lines = ['def f(x):', ...body, '    return y'];
    const text = lines.join('\n');
    const chunks = await chunkSourceFile({
      file: 'm.py',
      language: 'python',
      text,
      commitHash: '',
      symbols: [sym('m.py', 'python', 'f', 'function', 1, lines.length)],
    });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.chunk_kind === 'function_split')).toBe(true);
    for (const c of chunks.slice(1)) expect(lines[c.start_line - 1]).toMatch(/^ {4}(if|return)/);
    expect(chunks.map((c) => [c.start_line, c.end_line]).flat()).toEqual(expect.arrayContaining([1, lines.length]));
  });

  it('splitRange leaves short ranges whole and cuts long ones into contiguous pieces', () => {
    expect(splitRange(10, 40, [12, 20, 30])).toEqual([[10, 40]]);
    const bounds = Array.from({ length: 50 }, (_, i) => 3 + i * 3);
    const pieces = splitRange(1, 152, bounds);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]![0]).toBe(1);
    expect(pieces.at(-1)![1]).toBe(152);
    for (let i = 1; i < pieces.length; i++) {
      expect(pieces[i]![0]).toBe(pieces[i - 1]![1] + 1);
      expect(bounds).toContain(pieces[i]![0]);
    }
  });
});

describe('class chunks: header, fields and member signatures', () => {
  const ts = [
    '/** A cart. */', //                           1
    'export class Cart extends Base implements Priced {', // 2
    '  private items: Item[] = [];', //            3
    '  constructor(readonly owner: string) {', //  4
    '    super();', //                             5
    '  }', //                                      6
    '  total(): number {', //                      7
    '    return this.items.reduce((s, i) => s + i.price, 0);', // 8
    '  }', //                                      9
    '  readonly label = "cart";', //               10
    '}', //                                        11
  ];

  it("TypeScript: bodies elided, fields whole; the citation and hash are the class's lines; methods are their own chunks", async () => {
    const text = ts.join('\n');
    const symbols = [
      sym('c.ts', 'typescript', 'Cart', 'class', 2, 11),
      sym('c.ts', 'typescript', 'Cart.constructor', 'constructor', 4, 6, 'Cart#class'),
      sym('c.ts', 'typescript', 'Cart.total', 'method', 7, 9, 'Cart#class'),
    ];
    const chunks = await chunkSourceFile({ file: 'c.ts', language: 'typescript', text, commitHash: '', symbols });
    const cart = chunks.find((c) => c.symbol_name === 'Cart')!;
    expect(cart.text).toBe(
      [
        'export class Cart extends Base implements Priced {',
        '  private items: Item[] = [];',
        '  constructor(readonly owner: string) { … }',
        '  total(): number { … }',
        '  readonly label = "cart";',
        '}',
      ].join('\n'),
    );
    expect([cart.start_line, cart.end_line, cart.content_sha256]).toEqual([2, 11, contentSha256(linesText(ts, 2, 11))]);
    expect(chunks.find((c) => c.symbol_name === 'Cart.total')!.text).toContain('reduce');
    expect(chunks.map((c) => c.symbol_name)).toEqual(['c.ts', 'Cart', 'Cart.constructor', 'Cart.total']);
  });

  it('Python: method bodies become `...`, class attributes and decorators stay', async () => {
    const py = [
      'class Cart(Base):',
      '    tax = 0.2',
      '',
      '    @property',
      '    def total(self) -> float:',
      '        """Sum."""',
      '        return sum(self.items)',
      '',
      '    def add(self, item):',
      '        self.items.append(item)',
    ];
    const symbols = [
      sym('c.py', 'python', 'Cart', 'class', 1, 10),
      sym('c.py', 'python', 'Cart.total', 'method', 4, 7, 'Cart#class'),
      sym('c.py', 'python', 'Cart.add', 'method', 9, 10, 'Cart#class'),
    ];
    const chunks = await chunkSourceFile({ file: 'c.py', language: 'python', text: py.join('\n'), commitHash: '', symbols });
    expect(chunks.find((c) => c.symbol_name === 'Cart')!.text).toBe(
      [
        'class Cart(Base):',
        '    tax = 0.2',
        '',
        '    @property',
        '    def total(self) -> float:',
        '        ...',
        '',
        '    def add(self, item):',
        '        ...',
      ].join('\n'),
    );
  });
});

describe('Markdown doc chunks', () => {
  it('one chunk per heading section; fenced headings are text', () => {
    const text = ['Intro line', '', '# Title', 'para', '```sh', '# not a heading', '```', '', '## Sub', 'more', ''].join('\n');
    const chunks = chunkMarkdown({ file: 'docs/a.md', language: 'markdown', text, commitHash: '' });
    expect(chunks.map((c) => [c.symbol_name, c.start_line, c.end_line, c.chunk_kind])).toEqual([
      ['a.md', 1, 1, 'doc'],
      ['Title', 3, 7, 'doc'],
      ['Sub', 9, 10, 'doc'],
    ]);
  });

  it('a 2,000-line section is cut at paragraph breaks into bounded pieces that cover it', () => {
    const lines = ['# Changelog', ''];
    for (let i = 0; i < 400; i++)
      lines.push(`Release ${i} fixed the first thing.`, `It also changed the second thing ${i}.`, 'And a third line of prose.', `Closing words ${i}.`, '');
    const chunks = chunkMarkdown({ file: 'CHANGES.md', language: 'markdown', text: lines.join('\n'), commitHash: '' });
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) {
      expect(c.end_line - c.start_line + 1).toBeLessThanOrEqual(DOC_MAX_LINES);
      expect(c.text.length).toBeLessThanOrEqual(DOC_MAX_CHARS);
      expect(c.symbol_name).toBe('Changelog');
      // a piece ends at a paragraph's end
      expect(lines[c.end_line]?.trim() ?? '').toBe('');
    }
    const covered = chunks.flatMap((c) => Array.from({ length: c.end_line - c.start_line + 1 }, (_, k) => c.start_line + k));
    expect(lines.every((l, i) => l.trim() === '' || covered.includes(i + 1))).toBe(true);
  });

  it('a paragraph longer than the budget is cut at the budget', () => {
    const text = ['# Dump', ...Array.from({ length: 300 }, (_, i) => `row ${i}`)].join('\n');
    const chunks = chunkMarkdown({ file: 'd.md', language: 'markdown', text, commitHash: '' });
    expect(chunks.map((c) => c.end_line - c.start_line + 1)).toEqual([DOC_MAX_LINES, DOC_MAX_LINES, DOC_MAX_LINES, 301 - 3 * DOC_MAX_LINES]);
  });
});
