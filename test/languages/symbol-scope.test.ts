// What a symbol edit cannot see is said, not answered as "none": a pyright config whose `include`
// leaves `tests/` out makes find_references warn and a delete or signature change of a method only
// the tests call refuse the apply (INVALID_INPUT, details.unseen_folders) unless forced; a Go file
// its build constraints exclude is edited from the catalog's range with its delta not_checked and
// the reason (no INTERNAL). Inserted Python text gets PEP 8's two blank lines around a top-level def.
// The same for TypeScript files no tsconfig takes (fixtures/narrow-ts: include ["src"]).
import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import { openScratch } from '../helpers/scratch.js';

const PYPROJECT = '[project]\nname = "edits"\nversion = "0.1.0"\n\n[tool.pyright]\ninclude = ["edits"]\n';
const TESTS = 'from edits.shapes import Circle\n\n\ndef test_area() -> None:\n    assert Circle(1).describe()\n';
const CONSTS = '"""Consts."""\n\n\ndef first() -> int:\n    return 1\n\n\nregistry = {}\nregistry["first"] = first\n\n\ndef second() -> int:\n    return 2\n';

describe('symbol edits and the folders pyright does not load', async () => {
  const fx = await openScratch('edit-py', { 'pyproject.toml': PYPROJECT, 'tests/test_shapes.py': TESTS, 'edits/consts.py': CONSTS });

  it('find_references warns that tests/ is not searched', async () => {
    const r = await fx.run('find_references', { symbol: 'Circle.describe' });
    expect(r._meta.warnings.join('\n')).toMatch(/does not load tests\/ \(pyproject\.toml \[tool\.pyright\] leaves them out\)/);
  });

  it('delete_symbol of a method only tests call: the preview names tests/, the apply is refused unless forced', async () => {
    const before = fx.read('edits/shapes.py');
    const preview = await fx.run('delete_symbol', { symbol: 'Circle.describe' });
    expect(preview.referencing.unseen_folders).toEqual(['tests/']);
    const err = await fx.runError('delete_symbol', { symbol: 'Circle.describe', apply: true });
    expect([err.code, err.details?.unseen_folders]).toEqual(['INVALID_INPUT', ['tests/']]);
    expect(fx.read('edits/shapes.py')).toBe(before);
  });

  it('a signature change is refused alike unless accept_errors', async () => {
    const args = { symbol: 'Circle.describe', body: '@logged\ndef describe(self, prefix: str) -> str:\n    return f"{prefix} {self.radius}"\n' };
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true });
    expect([err.code, err.details?.unseen_folders]).toEqual(['INVALID_INPUT', ['tests/']]);
    // a body-only change searches no references: nothing to refuse
    const body = await fx.run('replace_symbol_body', {
      symbol: 'Circle.area',
      body: 'def area(self) -> float:\n    return math.pi * self.radius ** 2\n',
      apply: true,
    });
    expect(body.applied).toBe(true);
  });

  it('an insert before and after a top-level def takes two blank lines, not the lines up to the previous def', async () => {
    await fx.run('insert_before_symbol', { symbol: 'second', body: 'def mid() -> int:\n    return 3\n', apply: true });
    await fx.run('insert_after_symbol', { symbol: 'second', body: 'def last() -> int:\n    return 4\n', apply: true });
    expect(fx.read('edits/consts.py')).toBe(
      CONSTS.replace('def second', 'def mid() -> int:\n    return 3\n\n\ndef second') + '\n\ndef last() -> int:\n    return 4\n',
    );
  });
});

describe('symbol edits and the TypeScript files no tsconfig takes', async () => {
  // fixtures/narrow-ts: tsconfig.json includes only src/; scripts/ calls a function nothing in src/ calls
  const fx = await openScratch('narrow-ts', {
    'src/leftover.ts': 'export function leftover(n: number): number {\n  return n + 1;\n}\n',
    'scripts/use.ts': "import { leftover } from '../src/leftover.js';\n\nexport const three = leftover(2);\n",
  });
  const unseen = ['examples/', 'scripts/', 'tests/'];

  it('find_references warns that the folders outside every tsconfig are not searched', async () => {
    const r = await fx.run('find_references', { symbol: 'leftover', include_declaration: false });
    expect(r._meta.warnings.join('\n')).toMatch(/does not load examples\/, scripts\/, tests\/ \(tsconfig\.json leaves them out\)/);
  });

  it('delete_symbol of a function only scripts/ calls: unseen_folders, not "0 references"; apply refused unless forced', async () => {
    const before = fx.read('src/leftover.ts');
    const preview = await fx.run('delete_symbol', { symbol: 'leftover' });
    expect(preview.referencing.unseen_folders).toEqual(unseen);
    const err = await fx.runError('delete_symbol', { symbol: 'leftover', apply: true, expected_hash: preview.edit_hash });
    expect([err.code, err.details?.unseen_folders]).toEqual(['INVALID_INPUT', unseen]);
    expect(fx.read('src/leftover.ts')).toBe(before);
  });

  it('a signature change is refused alike unless accept_errors; a body-only change is not', async () => {
    const args = { symbol: 'leftover', body: 'export function leftover(n: number, by = 1): number {\n  return n + by;\n}' };
    const preview = await fx.run('replace_symbol_body', args);
    expect(preview.referencing.unseen_folders).toEqual(unseen);
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true, expected_hash: preview.edit_hash });
    expect([err.code, err.details?.unseen_folders]).toEqual(['INVALID_INPUT', unseen]);
    const body = await fx.run('replace_symbol_body', {
      symbol: 'leftover',
      body: 'export function leftover(n: number): number {\n  return 1 + n;\n}',
      apply: true,
    });
    expect(body.applied).toBe(true);
  });
});

describe.runIf(goAvailable)('symbol edits in a Go file excluded by build constraints', async () => {
  const fx = await openScratch('partial-go');

  it('a delete previews from the catalog, not_checked with the reason; the apply needs force', async () => {
    const before = fx.read('shapes/legacy.go');
    const r = await fx.run('delete_symbol', { symbol_id: 'shapes/legacy.go::legacyArea#function' });
    expect([r.diagnostics, r.diagnostics_reason]).toEqual(['not_checked', expect.stringContaining('excluded by its build tags `//go:build !go1.21`')]);
    expect(r.diff).toContain('-func legacyArea(side int) int {');
    const err = await fx.runError('delete_symbol', { symbol_id: 'shapes/legacy.go::legacyArea#function', apply: true });
    expect([err.code, err.message]).toEqual(['INVALID_INPUT', expect.stringContaining('no package metadata')]);
    expect(fx.read('shapes/legacy.go')).toBe(before);
    // force deletes although references were not searched; the file's own delta is unchecked too
    const unchecked = await fx.runError('delete_symbol', { symbol_id: 'shapes/legacy.go::legacyArea#function', apply: true, force: true });
    expect([unchecked.code, unchecked.message]).toEqual(['INVALID_INPUT', expect.stringContaining('accept_unchecked')]);
    const forced = await fx.run('delete_symbol', { symbol_id: 'shapes/legacy.go::legacyArea#function', apply: true, force: true, accept_unchecked: true });
    expect(forced.applied).toBe(true);
    expect(fx.read('shapes/legacy.go')).not.toContain('legacyArea');
  });

  it('a replace there is not_checked, never "checked" with nothing introduced', async () => {
    const r = await fx.run('replace_symbol_body', { symbol: 'LegacyTotal', body: 'func LegacyTotal(list []Shape) string {\n\treturn nope\n}' });
    expect([r.diagnostics, r.introduced]).toEqual(['not_checked', []]);
    expect(r.diagnostics_reason).toContain('no package metadata');
  });
});
