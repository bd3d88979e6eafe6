/**
 * Invariant chunks from parse trees: tier 1 markers (CRITICAL, IMPORTANT, WARNING, Go's
 * `Deprecated:` paragraph, `@deprecated`), tier 2 (INVARIANT:, CONSENSUS:, SECURITY:), tier 3 (a
 * panic / raise / throw whose message carries a policy word), per language; a marker inside a
 * string literal is not a comment and a `panic(` inside a comment is not a panic; each source chunk
 * points at the invariants in its lines or in the comment right above it.
 */
import { describe, expect, it } from 'vitest';

import { chunkSourceFile } from '../../src/chunks/chunker.js';
import type { Chunk } from '../../src/chunks/types.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

const sym = catalogSymbol;

const invariants = (chunks: Chunk[]) => chunks.filter((c) => c.chunk_kind === 'invariant');
const summary = (chunks: Chunk[]) => invariants(chunks).map((c) => [c.tier, c.marker, c.start_line, c.end_line, c.symbol_name ?? '']);

describe('invariant chunks', () => {
  it('Go: Deprecated: paragraph of a doc comment, markers, a panic with a policy word; not a marker in a string or a panic in a comment', async () => {
    const text = [
      'package pay', // 1
      '', // 2
      '// Charge bills a payment.', // 3
      '//', // 4
      '// Deprecated: use Settle, which records', // 5
      '// the ledger entry.', // 6
      'func Charge(cents int) int {', // 7
      '\t// CONSENSUS: every node rounds the same way.', // 8
      '\tif cents < 0 {', // 9
      '\t\tpanic("cents must not be negative")', // 10
      '\t}', // 11
      '\tif cents == 1 {', // 12
      '\t\tpanic("odd")', // 13
      '\t}', // 14
      '\ts := "// WARNING: a string, not a comment"', // 15
      '\t// a note: panic("never") is prose here', // 16
      '\treturn cents + len(s)', // 17
      '}', // 18
      '', // 19
      '// WARNING: not safe for concurrent use.', // 20
      'type Ledger struct{ n int }', // 21
    ].join('\n');
    const chunks = await chunkSourceFile({
      file: 'pay.go',
      language: 'go',
      text,
      commitHash: 'abc',
      symbols: [sym('pay.go', 'go', 'Charge', 'function', 7, 18), sym('pay.go', 'go', 'Ledger', 'struct', 21, 21)],
    });
    expect(summary(chunks)).toEqual([
      [1, 'Deprecated', 5, 6, 'Charge'],
      [2, 'CONSENSUS', 8, 8, 'Charge'],
      [3, 'panic', 10, 10, 'Charge'],
      [1, 'WARNING', 20, 20, 'Ledger'],
    ]);
    const inv = invariants(chunks);
    expect(inv.every((c) => c.provenance === 'auto' && c.commit_hash === 'abc')).toBe(true);
    expect(inv[0]!.text).toBe('// Deprecated: use Settle, which records\n// the ledger entry.');
    const charge = chunks.find((c) => c.chunk_kind === 'symbol' && c.symbol_name === 'Charge')!;
    expect(charge.invariants).toEqual([
      { chunk_id: inv[0]!.id, tier: 1, marker: 'Deprecated' },
      { chunk_id: inv[1]!.id, tier: 2, marker: 'CONSENSUS' },
      { chunk_id: inv[2]!.id, tier: 3, marker: 'panic' },
    ]);
    expect(chunks.find((c) => c.symbol_name === 'Ledger' && c.chunk_kind === 'symbol')!.invariants).toEqual([
      { chunk_id: inv[3]!.id, tier: 1, marker: 'WARNING' },
    ]);
  });

  it('TypeScript: @deprecated in JSDoc, SECURITY:, a throw with a policy word; a throw without one is no invariant', async () => {
    const text = [
      '/**', // 1
      ' * Refunds.', // 2
      ' * @deprecated use settle().', // 3
      ' */', // 4
      'export function refund(n: number): number {', // 5
      '  if (n < 0) throw new Error(`refund ${n} is required to be positive`);', // 6
      "  if (n === 0) throw new Error('zero');", // 7
      '  // SECURITY: never log the card number.', // 8
      '  return -n;', // 9
      '}', // 10
    ].join('\n');
    const chunks = await chunkSourceFile({
      file: 'r.ts',
      language: 'typescript',
      text,
      commitHash: '',
      symbols: [sym('r.ts', 'typescript', 'refund', 'function', 5, 10)],
    });
    expect(summary(chunks)).toEqual([
      [1, '@deprecated', 3, 3, 'refund'],
      [3, 'throw', 6, 6, 'refund'],
      [2, 'SECURITY', 8, 8, 'refund'],
    ]);
  });

  it('Python: IMPORTANT comment, raise with a policy word; PHP: @deprecated and a throw expression', async () => {
    const py = [
      'def f(x):',
      '    # IMPORTANT: x is a byte count',
      '    if x < 0:',
      "        raise ValueError('x must be >= 0')",
      "    raise KeyError('gone')",
    ].join('\n');
    const p = await chunkSourceFile({ file: 'm.py', language: 'python', text: py, commitHash: '', symbols: [sym('m.py', 'python', 'f', 'function', 1, 5)] });
    expect(summary(p)).toEqual([
      [1, 'IMPORTANT', 2, 2, 'f'],
      [3, 'raise', 4, 4, 'f'],
    ]);
    const php = ['<?php', '/** @deprecated since 2.0 */', 'function g($a) {', '  return $a ?? throw new Exception("a is always required");', '}'].join('\n');
    const h = await chunkSourceFile({ file: 'g.php', language: 'php', text: php, commitHash: '', symbols: [sym('g.php', 'php', 'g', 'function', 3, 5)] });
    expect(summary(h)).toEqual([
      [1, '@deprecated', 2, 2, 'g'],
      [3, 'throw', 4, 4, 'g'],
    ]);
  });

  it('a file without markers has no invariant chunk and no refs; a language without a grammar is chunked as before', async () => {
    const text = ['export function plain(a: number): number {', '  // just a note', '  return a;', '}'].join('\n');
    const chunks = await chunkSourceFile({
      file: 'p.ts',
      language: 'typescript',
      text,
      commitHash: '',
      symbols: [sym('p.ts', 'typescript', 'plain', 'function', 1, 4)],
    });
    expect(invariants(chunks)).toEqual([]);
    expect(chunks.every((c) => c.invariants === undefined)).toBe(true);
  });
});
