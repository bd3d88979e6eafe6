/**
 * The syntax pass's cheaper steps give exactly what the steps they replaced gave (the catalog must
 * stay byte-identical: bench/catalog-dump.ts compares whole corpora; these pin the edge cases).
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';
import { SymbolKind } from 'vscode-languageserver-protocol';

import { sourceSignature } from '../../src/adapters/doc-text.js';
import { LspSymbolKind } from '../../src/schema/convert/lsp-symbol-kind.js';
import { sha256 } from '../../src/util/hash.js';

/** sourceSignature as it was: the body opener cut by a pattern. */
function reference(lines: string[], at: number, language: string): string {
  let sig = (lines[at] ?? '').trim();
  let depth = 0;
  for (const c of sig) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  for (let l = at + 1; depth > 0 && l < lines.length && l < at + 15; l++) {
    const t = (lines[l] ?? '').trim();
    sig += (sig.endsWith('(') || t.startsWith(')') ? '' : ' ') + t;
    for (const c of t) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  }
  sig = sig.replace(/\s+/g, ' ').replace(/\s*\{\s*$/, '');
  if (language === 'python') sig = sig.replace(/:\s*$/, '');
  return sig.length <= 200 ? sig : '';
}

describe('the syntax pass keeps its answers', () => {
  it('sourceSignature drops a trailing body opener exactly as the pattern did', () => {
    const cases = [
      ['function f() {'],
      ['function f()  {  '],
      ['class A{'],
      ['x {{'],
      ['{'],
      [' { '],
      ['type T = {\u00a0{\u00a0'],
      ['function g(', '  a: number,', ') {'],
      ['const o = { a: 1 }'],
      ['f() {\t'],
      ['no opener'],
      [''],
      ['def f(x):'],
    ];
    for (const lines of cases) {
      for (const language of ['typescript', 'python']) {
        const want = reference(lines, 0, language);
        if (want === '') continue;
        expect(sourceSignature(lines, 0, language), JSON.stringify(lines)).toBe(want);
      }
    }
  });

  it('sha256 is the hex digest createHash gives, for bytes and strings', () => {
    for (const data of [Buffer.from(''), Buffer.from('héllo'), 'héllo', Buffer.alloc(100_000, 7)]) {
      expect(sha256(data)).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it("the workers' LSP symbol kinds are the protocol package's, name for name", () => {
    expect(Object.entries(LspSymbolKind).sort()).toEqual(Object.entries(SymbolKind).sort());
  });
});
