// Which declaration a comment or docstring documents, read by the syntax cataloger through the real
// grammars: each language's adjacency rules, so a docstring never lands on its neighbour.
import { describe, expect, it } from 'vitest';

import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function docs(rel: string, text: string): Promise<Record<string, string | null>> {
  const bytes = Buffer.from(text);
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  return Object.fromEntries(entry!.symbols.map((s) => [s.qualified_name, s.docstring ?? null]));
}

describe('doc attachment by adjacency', () => {
  it("Python: a class attribute never takes the next method's docstring; its own string below it is its doc", async () => {
    const text = [
      'class Cart:',
      '    """A cart."""',
      '',
      '    limit: int = 3',
      '',
      '    def total(self):',
      '        """The total."""',
      '        return 1',
      '',
      '    currency = "EUR"',
      '    """The currency."""',
      '',
      '    def clear(self):',
      '        pass',
      '',
    ].join('\n');
    expect(await docs('shop/cart.py', text)).toMatchObject({
      Cart: 'A cart.',
      'Cart.limit': null,
      'Cart.total': 'The total.',
      'Cart.currency': 'The currency.',
      'Cart.clear': null,
    });
  });

  it("Go: a trailing comment documents its own line's field, and its aligned continuation is not the next field's doc", async () => {
    const text = [
      'package shop',
      '',
      '// Options configure a cart.',
      'type Options struct {',
      '\tLimit int // how many items,',
      '\t          // at most',
      '\tName  string',
      '\t// Tag is documented above.',
      '\tTag string `json:"http://x"`',
      '}',
      '',
    ].join('\n');
    expect(await docs('shop/options.go', text)).toMatchObject({
      Options: 'Options configure a cart.',
      'Options.Limit': 'how many items,',
      'Options.Name': null,
      'Options.Tag': 'Tag is documented above.',
    });
  });

  it('Java: only a /** block is Javadoc: a (non-Javadoc) marker or a plain block comment documents nothing', async () => {
    const text = [
      'package shop;',
      '',
      'class Cart {',
      '    /* (non-Javadoc)',
      '     * @see java.lang.Object#toString()',
      '     */',
      '    public String toString() { return ""; }',
      '',
      '    /* commented out: old total */',
      '    int total() { return 0; }',
      '',
      '    /** Clears the cart. */',
      '    void clear() {}',
      '}',
      '',
    ].join('\n');
    expect(await docs('src/shop/Cart.java', text)).toMatchObject({ 'Cart.toString': null, 'Cart.total': null, 'Cart.clear': 'Clears the cart.' });
  });
});
