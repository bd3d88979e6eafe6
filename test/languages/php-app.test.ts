// PHP through intelephense on fixtures/php-app (truth in fixtures/php-app/EXPECTED.md).
import { describe, expect, it } from 'vitest';

import { openFixture, withoutTiming } from '../helpers/gateway.js';
import type { CallNode, CallSite, ExportedSymbol, FieldDescriptor, FunctionDescriptor, RelationDescriptor } from '../helpers/results.js';

describe('PHP through intelephense', async () => {
  const fx = await openFixture('php-app');

  it('a Laravel-style model (through a base class) is a ClassDescriptor of kind model with Eloquent facts from the source', async () => {
    const r = withoutTiming(await fx.run('find_type_definition', { type_name: 'User', namespace: 'App\\Models' }));
    expect(r).toMatchObject({
      language: 'php',
      kind: 'model',
      name: 'User',
      namespace: 'App\\Models',
      full_name: 'App\\Models\\User',
      signature: 'class User extends BaseModel implements Greets',
      description: 'A person who can sign in.',
      table: 'users',
      fillable: ['name', 'email', 'password'],
      hidden: ['password', 'remember_token'],
      appends: ['full_name'],
      casts: { email_verified_at: 'datetime', is_admin: 'boolean', settings: 'array' },
      scopes: ['active', 'verified'],
      attributes: ['full_name', 'first_name'],
      tags: ['eloquent'],
    });
    expect(r.visible).toBeUndefined();
    expect(r.relations).toEqual([
      { type: 'extends', target: 'BaseModel', target_full_name: 'App\\Models\\BaseModel' },
      { type: 'implements', target: 'Greets', target_full_name: 'App\\Contracts\\Greets' },
      { type: 'uses', target: 'HasSlug', target_full_name: 'App\\Traits\\HasSlug' },
      { type: 'hasMany', target: 'Post', target_full_name: 'App\\Models\\Post', method: 'posts' },
      { type: 'belongsToMany', target: 'Role', target_full_name: 'App\\Models\\Role', method: 'roles' },
      { type: 'hasOne', target: 'Profile', target_full_name: 'App\\Models\\Profile', method: 'profile' },
      { type: 'hasManyThrough', target: 'Comment', target_full_name: 'App\\Models\\Comment', method: 'comments' },
    ]);
    expect(r.methods.map((m: FunctionDescriptor) => `${m.kind} ${m.name}`)).toEqual([
      'method casts',
      'method posts',
      'method roles',
      'method profile',
      'method comments',
      'scope scopeActive',
      'scope verified',
      'accessor getFullNameAttribute',
      'mutator setPasswordAttribute',
      'accessor firstName',
      'method greeting',
    ]);
    expect(r.fields.find((f: FieldDescriptor) => f.name === 'loginCount')).toMatchObject({ type: 'int', visibility: 'public', default: '0' });
  });

  it('explicit and inferred tables, $casts property, morphTo', async () => {
    expect((await fx.run('find_type_definition', { type_name: 'Profile' })).table).toBe('user_profiles');
    expect((await fx.run('find_type_definition', { type_name: 'TeamMember' })).table).toBe('team_members');
    const post = await fx.run('find_type_definition', { type_name: 'Post' });
    expect([post.table, post.visible, post.casts]).toEqual(['posts', ['title', 'body'], { published_at: 'datetime', meta: 'json' }]);
    const comment = await fx.run('find_type_definition', { type_name: 'Comment' });
    // morphTo has no one related class: target `morph`, the morph columns (Laravel's defaults from the method name) in metadata.
    expect([comment.kind, comment.relations[1]]).toEqual([
      'model',
      {
        type: 'morphTo',
        target: 'morph',
        method: 'commentable',
        metadata: { polymorphic: true, morph_name: 'commentable', type_column: 'commentable_type', id_column: 'commentable_id' },
      },
    ]);
    expect(post.relations.find((r: RelationDescriptor) => r.method === 'comments')).toEqual({
      type: 'morphMany',
      target: 'Comment',
      target_full_name: 'App\\Models\\Comment',
      method: 'comments',
      metadata: { polymorphic: true, morph_name: 'commentable', type_column: 'commentable_type', id_column: 'commentable_id' },
    });
    // Not a model: a plain final class, an interface, an enum, a trait.
    const fmt = await fx.run('find_type_definition', { type_name: 'Formatter' });
    expect([fmt.kind, fmt.tags, fmt.table]).toEqual(['class', ['final'], undefined]);
    expect((await fx.run('find_type_definition', { type_name: 'Greets' })).kind).toBe('interface');
    expect((await fx.run('find_type_definition', { type_name: 'HasSlug' })).kind).toBe('trait');
    const status = await fx.run('find_type_definition', { type_name: 'Status' });
    expect([status.kind, status.fields.map((f: FieldDescriptor) => `${f.name}=${f.default}`)]).toEqual(['enum', ["Draft='draft'", "Published='published'"]]);
  });

  it('get_function_details: Eloquent relation return type, PHPDoc types where hints are missing, static', async () => {
    const roles = withoutTiming(await fx.run('get_function_details', { function_name: 'roles', class_name: 'User' }));
    expect(roles).toMatchObject({ kind: 'method', receiver: 'User', returns: [{ type: 'BelongsToMany<App\\Models\\Role>' }], visibility: 'public' });
    const format = withoutTiming(await fx.run('get_function_details', { function_name: 'Formatter::format' }));
    delete format.symbol_id;
    expect(format).toEqual({
      language: 'php',
      kind: 'method',
      name: 'format',
      namespace: 'App\\Services',
      receiver: 'Formatter',
      signature: 'public function format($text, $limit = 0)',
      description: 'Upper-cases the first letter of every word.',
      location: { file_path: 'app/Services/Formatter.php', uri: expect.stringMatching(/Formatter\.php$/), start_line: 20, end_line: 31 },
      parameters: [
        { name: 'text', type: 'string', description: 'the text to format' },
        { name: 'limit', type: 'int', default: '0', optional: true, description: 'maximum length, 0 for none' },
      ],
      returns: [{ type: 'string' }],
      visibility: 'public',
      metadata: { full_name: 'App\\Services\\Formatter::format' },
    });
    const make = await fx.run('get_function_details', { function_name: 'make', class_name: 'Formatter' });
    expect([make.is_static, make.returns]).toEqual([true, [{ type: 'static' }]]);
    const scope = await fx.run('get_function_details', { function_name: 'scopeActive' });
    expect(scope.kind).toBe('scope');
  });

  it('promoted constructor parameters are fields (visibility, readonly, type from hint or PHPDoc, default)', async () => {
    const job = await fx.run('find_type_definition', { type_name: 'SendDigest' });
    expect(
      job.fields.map((f: FieldDescriptor) => [
        f.name,
        f.type,
        f.visibility,
        !!f.is_readonly,
        f.default ?? null,
        f.location!.start_line,
        (f.tags ?? []).join(','),
      ]),
    ).toEqual([
      ['tries', 'int', 'public', false, '3', 17, ''],
      ['user', 'User', 'public', true, null, 24, 'promoted'],
      ['formatter', 'Formatter', 'private', false, null, 25, 'promoted'],
      ['topics', 'array', 'protected', false, '[]', 26, 'promoted'],
      ['subject', '?string', 'public', false, 'null', 28, 'promoted'],
    ]);
    // A trait `use` statement over several lines.
    expect(job.relations).toEqual([
      { type: 'uses', target: 'HasSlug', target_full_name: 'App\\Traits\\HasSlug' },
      { type: 'uses', target: 'Retries', target_full_name: 'App\\Jobs\\Retries' },
    ]);
    expect(job.fields.find((f: FieldDescriptor) => f.name === 'topics').description).toBe('Topics the digest covers.');
    expect(job.methods.map((m: FunctionDescriptor) => [m.name, m.kind, m.parameters!.length])).toEqual([['__construct', 'constructor', 5]]);
  });

  it('list_package_exports by namespace', async () => {
    const r = await fx.run('list_package_exports', { namespace: 'App\\Services' });
    expect(r.files).toEqual(['app/Services/Formatter.php', 'app/Services/UserService.php']);
    expect(r.symbols.map((s: ExportedSymbol) => `${s.kind} ${s.name}`)).toEqual(['class Formatter', 'class UserService']);
  });

  it('find_callers through references (no call hierarchy in intelephense) and find_callees from the body', async () => {
    const callers = await fx.run('find_callers', { symbol: 'Formatter::format' });
    expect(callers.root.calls.map((c: CallNode) => `${c.name}@${c.file}:${c.call_sites!.map((s: CallSite) => s.line).join(',')}`)).toEqual([
      'join@app/Services/Formatter.php:35',
      'greet@app/Services/UserService.php:15',
      'shout@app/Services/UserService.php:33',
    ]);
    expect(callers._meta.warnings).toContain('intelephense has no call hierarchy: callers derived from references');
    const deep = await fx.run('find_callers', { symbol: 'UserService::greet', depth: 2 });
    expect(deep.root.calls.map((c: CallNode) => [c.name, (c.children ?? []).map((k: CallNode) => k.name)])).toEqual([['greetAll', ['greet_everyone']]]);
    const callees = await fx.run('find_callees', { symbol: 'UserService::shout' });
    expect(callees.root.calls.map((c: CallNode) => `${c.name}@${c.file}`).sort()).toEqual([
      'format@app/Services/Formatter.php',
      'greeting@app/Models/User.php',
    ]);
    const refs = await fx.run('find_references', { symbol: 'Formatter::format' });
    expect(refs.total).toBe(4);
  });
});
