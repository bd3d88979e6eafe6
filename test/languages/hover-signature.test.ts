// get_hover and signature_help on the knowledge-* fixtures: a function used in one file (hovered
// at the use, so the parsed signature comes from the declaration it resolves to) and called through
// an import alias in another (signature help inside the argument list). Positions by text search.
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import { positionOf } from '../helpers/positions.js';
import type { SignatureEntry } from '../helpers/results.js';

const CASES = [
  {
    fixture: 'knowledge-ts',
    use: ['src/report.ts', 'formatTotal(sum'],
    call: ['src/summary.ts', "cents, 'USD'"],
    code: '(alias) formatTotal(cents: number, currency?: string): string\nimport formatTotal',
    documentation: 'Formats an amount of cents as a price.\n\n*@param* `cents` — the amount in cents',
    signature: {
      text: 'function formatTotal(cents: number, currency?: string): string',
      parameters: [
        { name: 'cents', type: 'number', description: 'the amount in cents' },
        { name: 'currency', type: 'string', default: "'EUR'", optional: true },
      ],
      returns: [{ type: 'string' }],
    },
    help: { label: 'money(cents: number, currency?: string): string', parameters: ['cents: number', 'currency?: string'] },
  },
  {
    fixture: 'knowledge-go',
    use: ['report/report.go', 'FormatTotal(sum'],
    call: ['summary/summary.go', 'cents, "USD"'],
    code: 'func format.FormatTotal(cents int, currency string) string',
    documentation:
      'FormatTotal formats an amount of cents as a price.\n\n[`format.FormatTotal` on pkg.go.dev](https://pkg.go.dev/example.com/knowledge/format#FormatTotal)',
    signature: {
      text: 'func FormatTotal(cents int, currency string) string',
      parameters: [
        { name: 'cents', type: 'int' },
        { name: 'currency', type: 'string' },
      ],
      returns: [{ type: 'string' }],
    },
    help: { label: 'FormatTotal(cents int, currency string) string', parameters: ['cents int', 'currency string'] },
  },
  {
    fixture: 'knowledge-py',
    use: ['knowledge/report.py', 'format_total(sum'],
    call: ['knowledge/summary.py', 'cents, "USD"'],
    code: '(function) def format_total(\n    cents: int,\n    currency: str = "EUR"\n) -> str',
    documentation: 'Formats an amount of cents as a price.',
    signature: {
      text: 'def format_total(cents: int, currency: str = "EUR") -> str',
      parameters: [
        { name: 'cents', type: 'int' },
        { name: 'currency', type: 'str', default: '"EUR"', optional: true },
      ],
      returns: [{ type: 'str' }],
    },
    help: { label: '(cents: int, currency: str = "EUR") -> str', parameters: ['cents: int', 'currency: str = "EUR"'] },
  },
  {
    fixture: 'knowledge-php',
    use: ['src/Billing/Report.php', 'formatTotal(array_sum'],
    call: ['src/Billing/Summary.php', "$cents, 'USD'"],
    code: "public static function formatTotal(int $cents, string $currency = 'EUR'): string",
    documentation:
      '__Knowledge\\\\Billing\\\\Pricing::formatTotal__\n\nFormats an amount of cents as a price.\n\n_@param_ `int $cents`\n\n_@param_ `string $currency`\n\n_@return_ `string`',
    signature: {
      text: "public static function formatTotal(int $cents, string $currency = 'EUR'): string",
      parameters: [
        { name: 'cents', type: 'int' },
        { name: 'currency', type: 'string', default: "'EUR'", optional: true },
      ],
      returns: [{ type: 'string' }],
    },
    help: { label: "(int $cents, string $currency = 'EUR')", parameters: ['int $cents', "string $currency = 'EUR'"] },
  },
];

for (const c of CASES) {
  describe.runIf(c.fixture !== 'knowledge-go' || goAvailable)(`get_hover / signature_help: ${c.fixture}`, async () => {
    const fx = await openFixture(c.fixture);

    it('hover at a use: clean markdown, code and prose apart, the declaration parsed', async () => {
      const p = positionOf(fx.root, c.use[0]!, c.use[1]!);
      const r = await fx.run('get_hover', { file: c.use[0], line: p.line, column: p.column + 1 });
      expect({ found: r.found, code: r.code, documentation: r.documentation, signature: r.signature }).toEqual({
        found: true,
        code: [c.code],
        documentation: c.documentation,
        signature: c.signature,
      });
      expect(r.markdown).toContain(c.code);
      expect(r.markdown).not.toMatch(/\n{3,}|<\?php|^---/m);
    });

    it('hover on a blank line has nothing to show: found false', async () => {
      const blank = fs.readFileSync(path.join(fx.root, c.use[0]!), 'utf8').split('\n').indexOf('') + 1;
      const r = await fx.run('get_hover', { file: c.use[0], line: blank, column: 1 });
      expect([r.found, r.markdown]).toEqual([false, '']);
    });

    it('signature help inside a call through an import alias', async () => {
      const p = positionOf(fx.root, c.call[0]!, c.call[1]!);
      const r = await fx.run('signature_help', { file: c.call[0], line: p.line, column: p.column });
      expect(r.signatures.map((s: SignatureEntry) => [s.label, s.parameters.map((x) => x.label)])).toEqual([[c.help.label, c.help.parameters]]);
      expect(r.active_signature).toBe(0);
    });
  });
}
