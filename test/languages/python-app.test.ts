// Python through pyright on fixtures/py-app (truth in fixtures/py-app/EXPECTED.md).
import { describe, expect, it } from 'vitest';

import { openFixture, withoutTiming } from '../helpers/gateway.js';
import type { CallNode, CallSite, ExportedSymbol, FieldDescriptor, FunctionDescriptor, ReferenceEntry } from '../helpers/results.js';

describe('Python through pyright', async () => {
  const fx = await openFixture('py-app');

  it('find_type_definition: class attributes, instance attributes, property, methods with decorators, base class', async () => {
    const r = withoutTiming(await fx.run('find_type_definition', { type_name: 'User' }));
    expect(r).toMatchObject({
      language: 'python',
      kind: 'class',
      name: 'User',
      package: 'app.models.user',
      full_name: 'app.models.user.User',
      signature: 'class User(Base)',
      description: 'A person who can sign in.',
      location: { file_path: 'app/models/user.py', start_line: 29, end_line: 85 },
      relations: [{ type: 'extends', target: 'Base', target_full_name: 'app.models.user.Base' }],
    });
    expect(r.fields.map((f: FieldDescriptor) => [f.name, f.type, f.visibility, f.default ?? null, f.tags!.join(',')])).toEqual([
      ['kind', 'str', 'public', '"user"', 'class_attribute'],
      ['max_roles', 'int', 'public', '5', 'class_attribute'],
      ['_secret_salt', 'str', 'protected', '"x"', 'class_attribute'],
      ['first', 'str', 'public', null, 'instance_attribute'],
      ['last', 'str', 'public', null, 'instance_attribute'],
      ['roles', 'list[Role]', 'public', null, 'instance_attribute'],
      ['active', 'bool', 'public', null, 'instance_attribute'],
      ['display_name', 'str', 'public', null, 'property'],
    ]);
    expect(r.methods.map((m: FunctionDescriptor) => [m.name, m.kind, m.visibility, !!m.is_static, (m.tags ?? []).join(',')])).toEqual([
      ['__init__', 'constructor', 'public', false, 'dunder'],
      ['__repr__', 'method', 'public', false, 'dunder'],
      ['from_email', 'method', 'public', true, 'classmethod'],
      ['normalize', 'method', 'public', true, 'staticmethod'],
      ['grant', 'method', 'public', false, 'tracked'],
      ['_audit', 'method', 'protected', false, ''],
      ['__log', 'method', 'private', false, ''],
    ]);
    const init = r.methods[0];
    expect(init.parameters).toEqual([
      { name: 'first', type: 'str' },
      { name: 'last', type: 'str' },
      { name: '*roles', type: 'Role', variadic: true },
      { name: 'active', type: 'bool', default: 'True', optional: true },
    ]);
    const role = await fx.run('find_type_definition', { type_name: 'Role' });
    expect([role.tags, role.fields.map((f: FieldDescriptor) => `${f.name}: ${f.type} = ${f.default ?? ''} [${f.tags!.join(',')}]`)]).toEqual([
      ['dataclass'],
      ['name: str =  [dataclass_field]', 'level: int = 1 [dataclass_field]', 'tags: list[str] = field(default_factory=list) [dataclass_field]'],
    ]);
    expect(role.fields.some((f: FieldDescriptor) => f.is_static)).toBe(false);
  });

  it('get_function_details: staticmethod with Google-style docstring sections', async () => {
    const d = withoutTiming(await fx.run('get_function_details', { function_name: 'normalize', class_name: 'User' }));
    delete d.symbol_id;
    expect(d).toEqual({
      language: 'python',
      kind: 'method',
      name: 'normalize',
      namespace: 'app.models.user',
      receiver: 'User',
      signature: 'def normalize(name: str, upper: bool = False) -> str',
      description: 'Trims a name.',
      location: { file_path: 'app/models/user.py', uri: expect.stringMatching(/user\.py$/), start_line: 59, end_line: 71 },
      parameters: [
        { name: 'name', type: 'str', description: 'The raw name.' },
        { name: 'upper', type: 'bool', default: 'False', optional: true, description: 'Whether to upper-case it.' },
      ],
      returns: [{ type: 'str', description: 'The cleaned name.' }],
      visibility: 'public',
      is_static: true,
      tags: ['staticmethod'],
      metadata: { qualified_name: 'app.models.user.User.normalize' },
    });
    const grant = await fx.run('get_function_details', { function_name: 'User.grant' });
    expect(grant.parameters).toEqual([
      { name: 'role', type: 'Role' },
      { name: '**options', type: 'str', variadic: true },
    ]);
  });

  it('dataclass fields: ClassVar stays a class attribute, KW_ONLY is no field, InitVar is tagged; lambda defaults whole', async () => {
    const s = await fx.run('find_type_definition', { type_name: 'Settings' });
    expect(s.tags).toEqual(['dataclass']);
    expect(s.fields.map((f: FieldDescriptor) => [f.name, f.type, f.default ?? null, !!f.is_static, f.tags!.join(',')])).toEqual([
      ['instances', 'ClassVar[int]', '0', true, 'class_attribute'],
      ['name', 'str', null, false, 'dataclass_field'],
      ['retries', 'int', '3', false, 'dataclass_field'],
      ['hosts', 'list[str]', 'field(default_factory=list)', false, 'dataclass_field'],
      ['debug', 'bool', 'False', false, 'dataclass_field'],
      ['seed', 'InitVar[int | None]', 'None', false, 'init_var'],
    ]);
    const sort = await fx.run('get_function_details', { function_name: 'sort_rows' });
    expect(sort.parameters).toEqual([
      { name: 'rows', type: 'list[tuple[int, int]]' },
      { name: 'key', type: 'Callable[[int, int], int]', default: 'lambda a, b: a + b', optional: true },
      { name: '*columns', type: 'str', variadic: true },
      { name: 'reverse', type: 'bool', default: 'False', optional: true },
      { name: '**options', type: 'object', variadic: true },
    ]);
    expect(sort.returns).toEqual([{ type: 'list[int]' }]);
    // Unannotated: pyright infers `int` / `str` from the defaults, but `Unknown | None` for
    // `default=None` and a partly unknown return: those are no types and are left out.
    const pick = await fx.run('get_function_details', { function_name: 'pick' });
    expect([pick.parameters, pick.returns]).toEqual([
      [
        { name: 'rows' },
        { name: 'default', default: 'None', optional: true },
        { name: 'limit', type: 'int', default: '10', optional: true },
        { name: 'label', type: 'str', default: '"first"', optional: true },
      ],
      undefined,
    ]);
  });

  it("parameters are no symbols: search and outlines list neither __init__'s nor any function's (pyright lists them as variables)", async () => {
    const found = (await fx.run('search_symbols', { query: 'first', max_results: 50 })).results as { qualified_name: string; scope: string }[];
    const names = found.map((h) => h.qualified_name);
    // the instance attribute `self.first` and the local `first, last = ...` of from_email stay
    expect(names).toEqual(expect.arrayContaining(['User.first', 'User.from_email.first']));
    expect(names.filter((n) => ['User.__init__.first', 'format_name.first'].includes(n))).toEqual([]);
    const outline = await fx.run('get_file_outline', { file: 'app/models/user.py', detail: 'full' });
    const user = (outline.symbols as { name: string; children?: { name: string; children?: unknown[] }[] }[]).find((n) => n.name === 'User')!;
    expect(user.children!.find((c) => c.name === '__init__')!.children).toBeUndefined();
    expect(user.children!.filter((c) => c.name === 'first')).toHaveLength(1);
    const normalize = (await fx.run('search_symbols', { query: 'upper', max_results: 50 })).results as { qualified_name: string }[];
    expect(normalize.map((h) => h.qualified_name)).not.toContain('User.normalize.upper');
  });

  it('list_package_exports: a module, and a package (its direct modules)', async () => {
    const mod = await fx.run('list_package_exports', { package: 'app.models.user' });
    expect(mod.symbols.map((s: ExportedSymbol) => `${s.kind} ${s.name}`)).toEqual(['class Role', 'class Base', 'class User', 'function format_name']);
    const pkg = await fx.run('list_package_exports', { package: 'app.services' });
    expect(pkg.files).toEqual(['app/services/greeter.py', 'app/services/registry.py']);
    expect(pkg.symbols.map((s: ExportedSymbol) => s.name)).toEqual(['greet', 'greet_all', 'shout', 'F', 'CALLS', 'tracked']);
  });

  it('find_references and find_callers across modules match the fixture truth', async () => {
    const refs = await fx.run('find_references', { symbol: 'format_name' });
    expect(refs.references.map((r: ReferenceEntry) => `${r.file}:${r.line}`)).toEqual([
      'app/models/user.py:51',
      'app/models/user.py:88',
      'app/services/greeter.py:2',
      'app/services/greeter.py:16',
    ]);
    const callers = await fx.run('find_callers', { symbol: 'greet' });
    expect(callers.root.calls.map((c: CallNode) => `${c.name}@${c.file}:${c.call_sites!.map((s: CallSite) => s.line).join(',')}`)).toEqual([
      'main@app/main.py:9',
      'greet_all@app/services/greeter.py:12',
    ]);
    const norm = await fx.run('find_callers', { symbol: 'User.normalize' });
    expect(norm.root.calls.map((c: CallNode) => [c.name, c.call_sites!.length])).toEqual([['format_name', 2]]);
    expect(norm._meta.index_state).toBe('ready');
  });
});
