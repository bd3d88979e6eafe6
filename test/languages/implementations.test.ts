// find_implementations on the knowledge-* fixtures: an interface with two implementations and a
// three-level class hierarchy. typescript-language-server and gopls answer from the server;
// pyright and intelephense (no implementation provider) from the catalog's type relations.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { DefinitionEntry, JsonResult } from '../helpers/results.js';

const brief = (r: JsonResult) => r.implementations.map((d: DefinitionEntry) => `${d.symbol_id} @${d.line}:${d.column}`);

describe('find_implementations: TypeScript (server)', async () => {
  const fx = await openFixture('knowledge-ts');
  it('an interface, its method, a class and an overridden method', async () => {
    const shape = await fx.run('find_implementations', { symbol: 'Shape' });
    expect([shape.source, brief(shape)]).toEqual(['server', ['src/shapes.ts::Circle#class @6:14', 'src/shapes.ts::Square#class @13:14']]);
    expect(brief(await fx.run('find_implementations', { symbol: 'Shape.area' }))).toEqual([
      'src/shapes.ts::Circle.area#method @8:3',
      'src/shapes.ts::Square.area#method @15:3',
    ]);
    // tsserver lists a concrete class itself among its implementations
    expect(brief(await fx.run('find_implementations', { symbol: 'Animal' }))).toEqual([
      'src/animals.ts::Animal#class @1:14',
      'src/animals.ts::Dog#class @7:14',
      'src/animals.ts::Puppy#class @13:14',
    ]);
  });
});

describe.runIf(goAvailable)('find_implementations: Go (server)', async () => {
  const fx = await openFixture('knowledge-go');
  it('an interface and its method; gopls answers the interfaces a concrete type satisfies', async () => {
    expect(brief(await fx.run('find_implementations', { symbol: 'Shape' }))).toEqual([
      'shapes/shapes.go::Circle#struct @12:6',
      'shapes/shapes.go::Square#struct @18:6',
    ]);
    expect(brief(await fx.run('find_implementations', { symbol: 'Shape.Area' }))).toEqual([
      'shapes/shapes.go::Circle.Area#method @15:17',
      'shapes/shapes.go::Square.Area#method @21:18',
    ]);
    expect(brief(await fx.run('find_implementations', { symbol: 'Circle' }))).toEqual(['shapes/shapes.go::Shape#interface @7:6']);
  });
});

const CATALOG_CASES = [
  {
    fixture: 'knowledge-py',
    server: 'pyright',
    fn: 'format_total',
    shape: ['knowledge/shapes.py::Circle#class @13:7', 'knowledge/shapes.py::Square#class @21:7'],
    area: ['knowledge/shapes.py::Circle.area#method @17:9', 'knowledge/shapes.py::Square.area#method @25:9'],
    animal: ['knowledge/animals.py::Dog#class @9:7', 'knowledge/animals.py::Puppy#class @14:7'],
    speak: ['knowledge/animals.py::Dog.speak#method @10:9', 'knowledge/animals.py::Puppy.speak#method @15:9'],
  },
  {
    fixture: 'knowledge-php',
    server: 'intelephense',
    fn: 'Knowledge\\double',
    shape: ['src/Shapes/Circle.php::Circle#class @5:7', 'src/Shapes/Square.php::Square#class @5:7'],
    area: ['src/Shapes/Circle.php::Circle.area#method @11:21', 'src/Shapes/Square.php::Square.area#method @11:21'],
    animal: ['src/Animals/Dog.php::Dog#class @5:7', 'src/Animals/Puppy.php::Puppy#class @5:7'],
    speak: ['src/Animals/Dog.php::Dog.speak#method @7:21', 'src/Animals/Puppy.php::Puppy.speak#method @7:21'],
  },
];

for (const c of CATALOG_CASES) {
  describe(`find_implementations: ${c.fixture} (catalog relations, ${c.server} has no provider)`, async () => {
    const fx = await openFixture(c.fixture);
    it('subtypes transitively, overriding methods, and a warning that says where they come from', async () => {
      const shape = await fx.run('find_implementations', { symbol: 'Shape' });
      expect([shape.source, brief(shape)]).toEqual(['syntax+server', c.shape]);
      expect(shape._meta.warnings.join('\n')).toContain(`${c.server} has no implementation provider`);
      expect(brief(await fx.run('find_implementations', { symbol: 'Shape.area' }))).toEqual(c.area);
      expect(brief(await fx.run('find_implementations', { symbol: 'Animal' }))).toEqual(c.animal);
      expect(brief(await fx.run('find_implementations', { symbol: 'Animal.speak' }))).toEqual(c.speak);
      // the leaf has none: a definite empty answer (the server was asked about every candidate)
      expect(brief(await fx.run('find_implementations', { symbol: 'Puppy' }))).toEqual([]);
      // a free function has no relations to build from: a coded answer, not an empty list
      expect((await fx.runError('find_implementations', { symbol: c.fn })).code).toBe('NOT_SUPPORTED');
    });
  });
}
