// PHP syntax-tier signatures through the real tree-sitter PHP grammar: every modifier spelled out
// (PHP's implicit `public` included) and long parameter lists given whole.
import { describe, expect, it } from 'vitest';

import { modifiersBefore } from '../../src/adapters/php/source.js';
import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function signatures(text: string): Promise<Record<string, string>> {
  const bytes = Buffer.from(text, 'utf8');
  const entry = await syntaxEntry({ rel: 'src/C.php', abs: '/ws/src/C.php', root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  const out: Record<string, string> = {};
  for (const s of entry?.symbols ?? []) if (s.kind !== 'variable') out[`${s.kind} ${s.qualified_name}`] = s.signature;
  return out;
}

const longParams = Array.from({ length: 16 }, (_, i) => `    ?\\Some\\Long\\Type${i} $argumentNumber${i} = null`).join(',\n');

const SOURCE = `<?php
namespace App;

#[Attr]
final readonly class Point extends Base implements Shape
{
    #[Deprecated]
    final public const int ORIGIN = 0, UNIT = 1;
    const PLAIN = 2;
    protected const HIDDEN = 3;
    var $legacy;
    public static ?int $count = null, $other;
    private readonly string $label;

    function implicit() {}

    final protected static function make(int $x): static
    {
        return new static();
    }

    public function __construct(
        private readonly int $x,
        protected float $y = 0.0,
    ) {}

    public function wide(
${longParams}
    ): void {}
}

abstract class Base
{
    abstract protected function area(): float;
}
`;

describe('PHP syntax signatures', () => {
  it('spell out visibility, final, abstract, static, readonly on classes, members and promoted properties', async () => {
    const s = await signatures(SOURCE);
    expect(s['class Point']).toBe('final readonly class Point extends Base implements Shape');
    expect(s['class Base']).toBe('abstract class Base');
    expect(s['constant Point.ORIGIN']).toBe('final public const int ORIGIN = 0');
    expect(s['constant Point.UNIT']).toBe('final public const int UNIT = 1');
    expect(s['constant Point.PLAIN']).toBe('public const PLAIN = 2');
    expect(s['constant Point.HIDDEN']).toBe('protected const HIDDEN = 3');
    expect(s['property Point.$legacy']).toBe('public $legacy');
    expect(s['property Point.$count']).toBe('public static ?int $count = null');
    expect(s['property Point.$other']).toBe('public static ?int $other');
    expect(s['property Point.$label']).toBe('private readonly string $label');
    expect(s['method Point.implicit']).toBe('public function implicit()');
    expect(s['method Point.make']).toBe('final protected static function make(int $x): static');
    expect(s['method Base.area']).toBe('abstract protected function area(): float');
    expect(s['constructor Point.__construct']).toBe('public function __construct(private readonly int $x, protected float $y = 0.0)');
    expect(s['property Point.$x']).toBe('private readonly int $x');
    expect(s['property Point.$y']).toBe('protected float $y = 0.0');
  });

  it('gives a long parameter list whole', async () => {
    const wide = (await signatures(SOURCE))['method Point.wide']!;
    expect(wide.length).toBeGreaterThan(400);
    expect(wide.startsWith('public function wide(?\\Some\\Long\\Type0 $argumentNumber0 = null, ')).toBe(true);
    expect(wide.endsWith('?\\Some\\Long\\Type15 $argumentNumber15 = null): void')).toBe(true);
  });
});

describe('modifiers of a member whose name is inside a keyword before it', () => {
  it('are read before the name, not before the keyword that contains it', () => {
    expect(modifiersBefore('protected function p(): void {}', 'p')).toEqual(['protected']);
    expect(modifiersBefore('final public static function stat()', 'stat')).toEqual(['final', 'public', 'static']);
    expect(modifiersBefore('private static ?int $ic = 0;', '$ic')).toEqual(['private', 'static']);
    expect(modifiersBefore('protected const PRO = 1;', 'PRO')).toEqual(['protected', 'const']);
  });
});
