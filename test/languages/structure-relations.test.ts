// Type relations read from parse trees and resolved with the server's definition, on the struct-*
// fixtures: the shapes regexes and fixed line windows got wrong on real code — a `$` in a type's
// name, a heritage clause past a declaration's sixth line, generic constraints and type arguments
// that are no bases, aliased and dotted Python bases, PHP `implements` below a long docblock and
// attributes, Go fields embedded on later lines.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { DefinitionEntry, JsonResult, TypeNode } from '../helpers/results.js';

/** The direct neighbours of a type_hierarchy answer, sorted: `name` or `name (external)`. */
function level(r: JsonResult, edge: 'supertypes' | 'subtypes'): string[] {
  return ((r.root[edge] ?? []) as TypeNode[]).map((n) => (n.external ? `${n.name} (external)` : n.name)).sort();
}

async function supertypes(fx: Awaited<ReturnType<typeof openFixture>>, symbol: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const r = await fx.run('type_hierarchy', { symbol, direction: 'supertypes', depth: 1, ...extra });
  expect(r.source).toBe('syntax+server');
  return level(r, 'supertypes');
}

async function subtypes(fx: Awaited<ReturnType<typeof openFixture>>, symbol: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const r = await fx.run('type_hierarchy', { symbol, direction: 'subtypes', depth: 1, ...extra });
  expect(r.source).toBe('syntax+server');
  return level(r, 'subtypes');
}

const inheritance = (r: JsonResult) =>
  Object.fromEntries(
    Object.entries(r.patterns as Record<string, { pattern_type: string; sites: { symbol_id: string }[]; source?: string }>)
      .filter(([, p]) => p.pattern_type === 'inheritance')
      .map(([name, p]) => [name, p.sites.map((s) => s.symbol_id.replace(/^.*::/, '')).sort()]),
  );

describe('type relations from parse trees: TypeScript', async () => {
  const fx = await openFixture('struct-ts');

  it('subtypes of a `$` name, declared over more than six lines, through aliases and namespaces', async () => {
    expect(await subtypes(fx, '$Core')).toEqual(['$Long', 'Aliased', 'Holder', 'Spread']);
    expect(await subtypes(fx, 'Base', { kind: 'class' })).toEqual(['Boxed', 'Decorated', 'Dotted', 'Renamed', 'Spread']);
  });

  it('supertypes: heritage clauses on later lines, never a generic constraint or a type argument', async () => {
    expect(await supertypes(fx, '$Long')).toEqual(['$Core']);
    expect(await supertypes(fx, 'Spread')).toEqual(['$Core', 'Base', 'Other']);
    expect(await supertypes(fx, 'Holder')).toEqual(['$Core']);
    expect(await supertypes(fx, 'Boxed')).toEqual(['Base']);
    expect(await supertypes(fx, 'Decorated')).toEqual(['Base']);
  });

  it('find_patterns inheritance groups them, and says the relations are syntax resolved by the server', async () => {
    const r = await fx.run('find_patterns', { pattern_type: 'inheritance' });
    expect(inheritance(r)).toEqual({
      'subtypes of $Core': ['$Long#interface', 'Aliased#class', 'Holder#class', 'Spread#class'],
      'subtypes of Base': ['Boxed#class', 'Decorated#class', 'Dotted#class', 'Renamed#class', 'Spread#class'],
    });
    expect(r.patterns['subtypes of $Core'].source).toBe('syntax+server');
  });
});

describe('type relations from parse trees: Python', async () => {
  const fx = await openFixture('struct-py');

  it('bases through `import x as y`, `from x import A as B`, dotted names, a long decorator and a name assigned the class', async () => {
    expect(await subtypes(fx, 'Base')).toEqual(['Aliased', 'Decorated', 'Dotted', 'FullyDotted', 'Grouped', 'Legacy', 'ModuleAliased']);
    expect(await supertypes(fx, 'Legacy')).toEqual(['Base']);
    expect(await subtypes(fx, 'Mixin')).toEqual(['Dotted', 'Grouped']);
    expect(await supertypes(fx, 'Decorated')).toEqual(['Base', 'Generic (external)']);
    expect(await supertypes(fx, 'Dotted')).toEqual(['Base', 'Mixin']);
  });

  it("a base in a copy of a standard-library package is the workspace's class, named once", async () => {
    // pyright answers the definition of `_base.BrokenExecutor` with the workspace's module and the
    // interpreter's (or typeshed's) copy of it: the base is one class, not one more external one
    expect(await supertypes(fx, 'BrokenProcessPool')).toEqual(['BrokenExecutor']);
  });

  it('find_implementations (pyright has no provider) lists the same subtypes', async () => {
    const r = await fx.run('find_implementations', { symbol: 'Base' });
    expect(r.source).toBe('syntax+server');
    expect(r.implementations.map((d: DefinitionEntry) => d.name).sort()).toEqual([
      'Aliased',
      'Decorated',
      'Dotted',
      'FullyDotted',
      'Grouped',
      'Legacy',
      'ModuleAliased',
    ]);
  });

  it("a class descriptor's bases in full, imported over several lines, relatively, renamed", async () => {
    const grouped = await fx.run('find_type_definition', { type_name: 'Grouped' });
    expect(grouped.relations).toEqual([
      { type: 'extends', target: 'Mix', target_full_name: 'shop.base.Mixin' },
      { type: 'extends', target: 'Tagged', target_full_name: 'shop.base.Tagged' },
      { type: 'extends', target: 'sb.Base', target_full_name: 'shop.base.Base' },
    ]);
  });
});

describe('type relations from parse trees: PHP', async () => {
  const fx = await openFixture('struct-php');

  it('implementations below a long docblock and attributes, on later lines, and through a `use … as` alias', async () => {
    const r = await fx.run('find_implementations', { symbol: 'Greets' });
    expect(r.source).toBe('syntax+server');
    expect(r.implementations.map((d: DefinitionEntry) => d.name).sort()).toEqual(['Documented', 'Multi', 'Plain']);
    const names = await fx.run('find_implementations', { symbol: 'Names' });
    expect(names.implementations.map((d: DefinitionEntry) => d.name)).toEqual(['Documented']);
  });

  it('supertypes of the documented class', async () => {
    expect(await supertypes(fx, 'Documented')).toEqual(['Base', 'Greets', 'Names']);
    expect(await supertypes(fx, 'Multi')).toEqual(['Base', 'Countable (external)', 'Greets']);
  });

  it('the docblock above attributes written over several lines documents its class, method and property', async () => {
    const documented = await fx.run('find_type_definition', { type_name: 'Documented' });
    expect(documented.description).toBe('A class with a long docblock.');
    const described = await fx.run('find_type_definition', { type_name: 'Described' });
    expect(described.description).toBe('A class whose members carry attributes written over several lines.');
    const methods = Object.fromEntries(described.methods.map((m: { name: string; description?: string }) => [m.name, m.description]));
    // a member without a docblock does not take its class's
    expect(methods).toEqual({ boot: 'Boots the described hooks.', plain: undefined });
    expect(described.fields.find((f: { name: string }) => f.name === 'retries').description).toBe('The retry count.');
  });

  it('traits a class uses after its methods, named through a group import over several lines', async () => {
    const slugged = await fx.run('find_type_definition', { type_name: 'Slugged' });
    expect(slugged.relations).toEqual([
      { type: 'uses', target: 'HasSlug', target_full_name: 'Shop\\Concerns\\HasSlug' },
      { type: 'uses', target: 'HasTitle', target_full_name: 'Shop\\Concerns\\HasTitle' },
    ]);
  });
});

describe.runIf(goAvailable)('type relations from parse trees: Go', async () => {
  const fx = await openFixture('struct-go');

  it('fields embedded on later lines of a struct or an interface, by pointer, by package, generic', async () => {
    expect(await supertypes(fx, 'Multi')).toEqual(['Base', 'Local', 'Thing']);
    expect(await supertypes(fx, 'Generic')).toEqual(['Inner', 'Local']);
    expect(await supertypes(fx, 'ReadNamer')).toEqual(['Named', 'Reader (external)']);
    expect(await subtypes(fx, 'Local')).toEqual(['Generic', 'Multi']);
  });

  it("a type descriptor's embeds relations and embedded fields, also on the declaration's own line", async () => {
    const embeds = async (name: string) =>
      (((await fx.run('find_type_definition', { type_name: name })).relations ?? []) as { type: string; target: string }[]).map((r) => `${r.type} ${r.target}`);
    expect(await embeds('Multi')).toEqual(['embeds base.Base', 'embeds Local', 'embeds base.Thing']);
    expect(await embeds('ReadNamer')).toEqual(['embeds io.Reader', 'embeds base.Named']);
    expect(await embeds('Pair')).toEqual(['embeds base.Base']);
    expect(await embeds('OneLine')).toEqual(['embeds base.Named']);
    const pair = await fx.run('find_type_definition', { type_name: 'Pair' });
    expect(pair.fields.map((f: { name: string; embedded?: boolean }) => `${f.name}${f.embedded ? ' (embedded)' : ''}`)).toEqual(['Base (embedded)', 'n']);
  });
});

describe('decorations from parse trees: find_dead_code', async () => {
  const fx = await openFixture('struct-py');

  it('a decorator written over several lines makes a framework hook; an undecorated uncalled function is dead', async () => {
    const r = await fx.run('find_dead_code', { category: 'framework_hook' });
    expect(r.candidates.map((c: { symbol_id: string; reason: string }) => [c.symbol_id, /`@(route|dataclass)`/.exec(c.reason)?.[1]])).toEqual([
      ['shop/kinds.py::Decorated#class', 'dataclass'],
      ['shop/views.py::index#function', 'route'],
    ]);
    const dead = await fx.run('find_dead_code', { category: 'dead' });
    expect(dead.candidates.map((c: { symbol_id: string }) => c.symbol_id)).toContain('shop/views.py::orphan#function');
  });
});

describe('decorations from parse trees: find_dead_code on PHP', async () => {
  const fx = await openFixture('struct-php');

  it('an attribute on the line of its method, and attributes below a long docblock, make framework hooks', async () => {
    const r = await fx.run('find_dead_code', { category: 'framework_hook' });
    expect(r.candidates.map((c: { symbol_id: string; reason: string }) => [c.symbol_id, /`(#\[\w+\])`/.exec(c.reason)?.[1]])).toEqual([
      ['src/Described.php::Described.boot#method', '#[Marker]'],
      ['src/Documented.php::Documented#class', '#[Marker]'],
      ['src/Hooks.php::Hooks.onBoot#method', '#[Marker]'],
    ]);
  });
});
