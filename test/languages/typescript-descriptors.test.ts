// Descriptors for fixtures/ts-app through the real typescript-language-server (EXPECTED.md).
import { describe, expect, it } from 'vitest';

import { openFixture, withoutTiming } from '../helpers/gateway.js';
import { lineOf } from '../helpers/positions.js';
import type { ExportedSymbol, FieldDescriptor, FunctionDescriptor, ListedSymbol, OutlineSymbol } from '../helpers/results.js';

const fx = await openFixture('ts-app');
const loc = (file: string, start: number, end: number) => ({ file_path: file, uri: `file://${fx.root}/${file}`, start_line: start, end_line: end });

describe('find_type_definition (TypeScript)', () => {
  it('describes an abstract class: fields, methods, relation resolved to its full name', async () => {
    const r = withoutTiming(await fx.run('find_type_definition', { type_name: 'Shape' }));
    const f = 'src/models/shape.ts';
    const start = lineOf(fx.root, f, 'export abstract class Shape');
    expect(r).toEqual({
      language: 'typescript',
      kind: 'class',
      name: 'Shape',
      package: 'src/models/shape',
      full_name: '"src/models/shape".Shape',
      signature: 'export abstract class Shape implements Describable',
      description: 'Base class of every drawable shape.',
      location: loc(f, start, lineOf(fx.root, f, '/** A circle given by its radius. */') - 2),
      fields: [
        {
          name: 'count',
          type: 'number',
          description: 'How many shapes were created.',
          visibility: 'public',
          is_static: true,
          default: '0',
          location: loc(f, start + 2, start + 2),
        },
        { name: 'color', type: 'Color', visibility: 'protected', is_readonly: true, location: loc(f, start + 3, start + 3) },
      ],
      methods: [
        {
          language: 'typescript',
          kind: 'constructor',
          name: 'constructor',
          receiver: 'Shape',
          signature: 'constructor(color?: Color)',
          description: 'Base class of every drawable shape.',
          location: loc(f, start + 5, start + 8),
          parameters: [{ name: 'color', type: 'Color', default: 'Color.Red', optional: true }],
          visibility: 'public',
        },
        {
          language: 'typescript',
          kind: 'method',
          name: 'area',
          receiver: 'Shape',
          signature: 'abstract area(): number',
          description: 'Surface of the shape in square units.',
          location: loc(f, lineOf(fx.root, f, 'abstract area()'), lineOf(fx.root, f, 'abstract area()')),
          returns: [{ type: 'number' }],
          visibility: 'public',
          is_abstract: true,
        },
        {
          language: 'typescript',
          kind: 'method',
          name: 'describe',
          receiver: 'Shape',
          signature: 'describe(): string',
          description: 'Returns a one-line description.',
          location: loc(f, lineOf(fx.root, f, 'describe(): string'), lineOf(fx.root, f, 'describe(): string') + 2),
          returns: [{ type: 'string' }],
          visibility: 'public',
        },
      ],
      relations: [{ type: 'implements', target: 'Describable', target_full_name: '"src/models/types".Describable' }],
      tags: ['abstract', 'exported'],
      symbol_id: 'src/models/shape.ts::Shape#class',
    });
  });

  it('covers every field modifier of User (static, readonly, optional, protected, private, #private, defaults)', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'User' });
    const fields = (r.fields as FieldDescriptor[]).map(({ location: _location, ...rest }) => rest);
    expect(fields).toEqual([
      { name: 'created', type: 'number', description: 'Number of users created so far.', visibility: 'public', is_static: true, default: '0' },
      { name: 'id', type: 'number', description: 'Unique id, assigned at construction.', visibility: 'public', is_readonly: true },
      { name: 'name', type: 'string', visibility: 'public' },
      { name: 'nickname', type: 'string', visibility: 'public', optional: true },
      { name: 'email', type: 'string', visibility: 'protected' },
      { name: 'loginCount', type: 'number', visibility: 'private', default: '0' },
      { name: '#secret', type: 'string', visibility: 'private', default: "'hidden'", tags: ['ecmascript-private'] },
      { name: 'active', type: 'boolean', visibility: 'public', default: 'true' },
    ]);
    expect((r.methods as FunctionDescriptor[]).map((m) => m.signature)).toEqual([
      'constructor(first: string, last: string, email: string)',
      'login(when?: Date): number',
      'describe(): string',
      'static fromFullName(full: string, email: string): User',
      'protected async audit(...events: string[]): Promise<number>',
    ]);
    expect(r.relations).toEqual([{ type: 'implements', target: 'Named', target_full_name: '"src/models/types".Named' }]);
  });

  it('describes generics, interfaces with extends, enums, type aliases and namespaces', async () => {
    const reg = await fx.run('find_type_definition', { type_name: 'Registry' });
    expect(reg.metadata).toEqual({ type_parameters: '<T extends Named>' });
    expect(reg.relations).toEqual([{ type: 'implements', target: 'Repository', target_full_name: '"src/models/types".Repository' }]);
    expect((reg.fields as FieldDescriptor[]).map((f) => [f.name, f.type, f.visibility, f.is_readonly ?? false, f.tags ?? []])).toEqual([
      ['items', 'Map<EntityId, T>', 'private', true, []],
      ['size', 'number', 'public', true, ['getter']],
    ]);
    const named = await fx.run('find_type_definition', { type_name: 'Named' });
    expect([named.kind, named.signature, named.relations]).toEqual([
      'interface',
      'export interface Named extends Describable',
      [{ type: 'extends', target: 'Describable', target_full_name: '"src/models/types".Describable' }],
    ]);
    const color = await fx.run('find_type_definition', { type_name: 'Color' });
    expect([color.kind, (color.fields as FieldDescriptor[]).map((f) => [f.name, f.default])]).toEqual([
      'enum',
      [
        ['Red', "'red'"],
        ['Green', "'green'"],
        ['Blue', "'blue'"],
      ],
    ]);
    const alias = await fx.run('find_type_definition', { type_name: 'EntityId' });
    expect([alias.kind, alias.signature, alias.description]).toEqual(['type', 'export type EntityId = string | number', 'An identifier of a stored entity.']);
    const ns = await fx.run('find_type_definition', { type_name: 'Geometry.Factory' });
    expect([ns.namespace, ns.full_name, (ns.methods as FunctionDescriptor[]).map((m) => m.signature), ns.tags]).toEqual([
      'Geometry',
      '"src/services/geometry".Geometry.Factory',
      ['function circle(r: number): Circle', 'function square(side: number): Square'],
      ['namespace', 'exported'],
    ]);
  });
});

describe('get_function_details (TypeScript)', () => {
  it('gives parameters with defaults and JSDoc descriptions', async () => {
    const f = 'src/util/strings.ts';
    const start = lineOf(fx.root, f, 'export function padLeft');
    expect(withoutTiming(await fx.run('get_function_details', { function_name: 'padLeft' }))).toEqual({
      language: 'typescript',
      kind: 'function',
      name: 'padLeft',
      signature: 'function padLeft(value: string, width?: number, fill?: string): string',
      description: 'Pads a value on the left.',
      location: loc(f, start, start + 2),
      parameters: [
        { name: 'value', type: 'string', description: 'The text to pad.' },
        { name: 'width', type: 'number', default: '8', optional: true, description: 'Target width.' },
        { name: 'fill', type: 'string', default: "' '", optional: true, description: 'Fill character.' },
      ],
      returns: [{ type: 'string' }],
      visibility: 'public',
      tags: ['exported'],
      symbol_id: 'src/util/strings.ts::padLeft#function',
    });
  });

  it('treats overload signatures and implementation as one function', async () => {
    const r = await fx.run('get_function_details', { function_name: 'scale' });
    expect(r.metadata).toEqual({
      overloads: ['function scale(value: number, factor: number): number', 'function scale(values: number[], factor: number): number[]'],
    });
    expect(r.location.start_line).toBe(lineOf(fx.root, 'src/util/math.ts', 'export function scale(value'));
    expect(r.location.end_line).toBe(lineOf(fx.root, 'src/util/math.ts', 'return Array.isArray') + 1);
  });

  it('picks a method by class_name or qualified name, with returns docs and code', async () => {
    const a = await fx.run('get_function_details', { function_name: 'login', class_name: 'User', include_code: true });
    const b = await fx.run('get_function_details', { function_name: 'User.login', include_code: true });
    expect(withoutTiming(a)).toEqual(withoutTiming(b));
    expect(a.returns).toEqual([{ type: 'number', description: 'The new login count.' }]);
    expect(a.parameters).toEqual([{ name: 'when', type: 'Date', default: 'new Date()', optional: true, description: 'The login time.' }]);
    expect(a.code).toContain('this.loginCount += 1;');
    const audit = await fx.run('get_function_details', { function_name: 'audit' });
    expect([audit.visibility, audit.tags, audit.parameters]).toEqual(['protected', ['async'], [{ name: 'events', type: 'string[]', variadic: true }]]);
    const circle = await fx.run('get_function_details', { function_name: 'Geometry.Factory.circle' });
    expect([circle.namespace, circle.signature]).toEqual(['Geometry.Factory', 'function circle(r: number): Circle']);
  });

  it('refuses an ambiguous method name with candidates', async () => {
    const e = await fx.runError('get_function_details', { function_name: 'describe' });
    expect(e.code).toBe('AMBIGUOUS_SYMBOL');
    expect((e.details!.candidates as ListedSymbol[]).map((c) => c.qualified_name).sort()).toEqual(['Describable.describe', 'Shape.describe', 'User.describe']);
  });

  it('asks again by a candidate symbol_id; a name and an id together, or an id of a type, are INVALID_INPUT', async () => {
    const e = await fx.runError('get_function_details', { function_name: 'describe' });
    const id = (e.details!.candidates as ListedSymbol[]).find((c) => c.qualified_name === 'User.describe')!.symbol_id;
    const r = await fx.run('get_function_details', { symbol_id: id });
    expect([r.name, r.kind, r.symbol_id, r.signature]).toEqual(['describe', 'method', id, 'describe(): string']);
    expect((await fx.runError('get_function_details', { function_name: 'describe', symbol_id: id })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('get_function_details', { symbol_id: 'src/models/user.ts::User#class' })).code).toBe('INVALID_INPUT');
    const t = await fx.run('find_type_definition', { symbol_id: 'src/models/user.ts::User#class' });
    expect([t.kind, t.name]).toEqual(['class', 'User']);
    expect((await fx.runError('find_type_definition', { type_name: 'User', bogus: 1 })).code).toBe('INVALID_INPUT');
  });
});

describe('list_package_exports / get_file_outline (TypeScript)', () => {
  it('lists a module file, leaving out what is not exported', async () => {
    const r = await fx.run('list_package_exports', { package: 'src/util/strings' });
    expect(r.files).toEqual(['src/util/strings.ts']);
    expect((r.symbols as ExportedSymbol[]).map((s) => [s.kind, s.name])).toEqual([
      ['function', 'formatName'],
      ['function', 'capitalize'],
      ['function', 'padLeft'],
      ['function', 'joinAll'],
      ['constant', 'VOWEL_COUNT'],
    ]);
  });

  it('follows re-exports of an index, with aliases', async () => {
    const r = await fx.run('list_package_exports', { package: 'src' });
    expect(r.files).toEqual(['src/index.ts']);
    const names = (r.symbols as ExportedSymbol[]).map((s) => s.name);
    expect(names).toEqual([
      'Shape',
      'Circle',
      'Square',
      'Color',
      'EntityId',
      'Listener',
      'Describable',
      'Named',
      'Repository',
      'User',
      'toDisplayName',
      'padLeft',
      'Registry',
      'main',
    ]);
    const alias = (r.symbols as ExportedSymbol[]).find((s) => s.name === 'toDisplayName')!;
    expect([alias.metadata, alias.location!.file_path]).toEqual([{ exported_as: 'toDisplayName', original_name: 'formatName' }, 'src/util/strings.ts']);
    const classes = await fx.run('list_package_exports', { package: 'src/index.ts', symbol_type: 'interface' });
    expect((classes.symbols as ExportedSymbol[]).map((s) => s.name)).toEqual(['Describable', 'Named', 'Repository']);
  });

  it('outlines a file hierarchically with symbol ids (no locals)', async () => {
    const r = await fx.run('get_file_outline', { file: 'src/services/geometry.ts', detail: 'full' });
    const tree = (list: OutlineSymbol[]): unknown[] =>
      list.map((s) => (s.children ? [s.kind, s.name, s.symbol_id, tree(s.children)] : [s.kind, s.name, s.symbol_id]));
    expect([r.file, r.language, tree(r.symbols)]).toEqual([
      'src/services/geometry.ts',
      'typescript',
      [
        [
          'namespace',
          'Geometry',
          'src/services/geometry.ts::Geometry#namespace',
          [
            ['constant', 'UNIT', 'src/services/geometry.ts::Geometry.UNIT#constant'],
            ['function', 'totalArea', 'src/services/geometry.ts::Geometry.totalArea#function'],
            [
              'namespace',
              'Factory',
              'src/services/geometry.ts::Geometry.Factory#namespace',
              [
                ['function', 'circle', 'src/services/geometry.ts::Geometry.Factory.circle#function'],
                ['function', 'square', 'src/services/geometry.ts::Geometry.Factory.square#function'],
              ],
            ],
          ],
        ],
      ],
    ]);
    // the file's language, package and path are said once, not on every node
    expect(r.package).toBe('src/services/geometry');
    const geometry = r.symbols[0];
    expect(Object.keys(geometry).sort()).not.toContain('language');
    expect(geometry.location).toEqual({ start_line: expect.any(Number), end_line: expect.any(Number) });
    expect(geometry.children[0]).not.toHaveProperty('package');
    const md = await fx.runText('get_file_outline', { file: 'src/services/geometry.ts' });
    expect(md).toContain('- function **circle**');
  });
});
