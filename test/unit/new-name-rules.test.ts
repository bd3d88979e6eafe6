// rename_symbol's new name against each language's identifier grammar (the adapters' newNameProblem):
// Unicode identifiers accepted, injected code and keywords refused with the reason.
import { describe, expect, it } from 'vitest';

import { genericNameProblem } from '../../src/adapters/identifier.js';
import { goNameProblem } from '../../src/adapters/servers/go/identifier.js';
import { phpNameProblem } from '../../src/adapters/servers/php/identifier.js';
import { pythonNameProblem } from '../../src/adapters/servers/python/identifier.js';
import { tsNameProblem } from '../../src/adapters/servers/typescript/identifier.js';

const INJECTED = "x(); require('child_process').execSync('id'); function y";

const RULES = [
  {
    lang: 'typescript',
    rule: tsNameProblem,
    ok: ['priceLabel', '$el', '_x', 'café', 'Ωmega', 'ident\u200Cifier', '#count', 'delete'],
    bad: ['1x', 'a-b', 'a b', '', '##x'],
  },
  { lang: 'go', rule: goNameProblem, ok: ['PriceLabel', '_x', 'café', 'x١'], bad: ['func', 'range', '1x', 'a.b', '$x'] },
  { lang: 'python', rule: pythonNameProblem, ok: ['price_label', 'café', 'match', '_', 'ﬁle'], bad: ['class', 'None', 'lambda', '1x', 'a-b', '$x'] },
  { lang: 'php', rule: phpNameProblem, ok: ['priceLabel', '$count', 'café', '_x'], bad: ['1x', 'a-b', '$', 'a::b'] },
  { lang: 'generic', rule: genericNameProblem, ok: ['foo-bar', 'valid?', 'x'], bad: ['a b', 'f()', "'x'", 'a;b', ''] },
];

describe.each(RULES)('new names in $lang', ({ rule, ok, bad }) => {
  it('accepts identifiers of the language (Unicode included)', () => {
    for (const name of ok) expect(rule(name), name).toBeUndefined();
  });
  it('refuses non-identifiers and keywords, with the reason', () => {
    for (const name of [...bad, INJECTED]) expect(rule(name), name).toMatch(/identifier|keyword|empty|holds/);
  });
});

it('names the character that breaks the name', () => {
  expect(tsNameProblem(INJECTED)).toBe("not an identifier in TypeScript/JavaScript: '(' at character 2");
  expect(goNameProblem('func')).toBe('func is a keyword in Go');
  expect(pythonNameProblem('a b')).toBe('not an identifier in Python: U+0020 at character 2');
});
