// Reads fixtures/php-app sources (written for these tests) and PHPDoc strings as intelephense shows them.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { fileStructure } from '../../src/adapters/file-structure.js';
import { inferTableName, parsePhpDoc, parsePhpFunctionHeader, resolveGenericArgs, resolvePhpClass } from '../../src/adapters/php/source.js';
import { phpStringList, phpStringMap, readPhpValue } from '../../src/adapters/servers/php/array-reader.js';
import { eloquentInfo, relationCall } from '../../src/adapters/servers/php/eloquent.js';
import { phpUses } from '../../src/adapters/servers/php/model.js';
import type { FileContext } from '../../src/adapters/types.js';

const fixture = (rel: string) => readFileSync(path.join(__dirname, '../../fixtures/php-app', rel), 'utf8');

/** A file's class imports as the adapter reads them: from its parse tree. */
async function usesOf(text: string): Promise<Map<string, string>> {
  const structure = await fileStructure('a.php', text);
  return phpUses({ structure: () => structure } as unknown as FileContext);
}

describe('PHP array reader', () => {
  it('reads lists, maps, comments, trailing commas, ::class and array()', () => {
    const src = `[\n  'password', // hidden\n  "remember_token",\n  /* x */ 'a' => X::class, 'n' => 3, 'f' => fn ($x) => [$x, 1],\n]`;
    const v = readPhpValue(src, 0);
    expect(phpStringList(v)).toEqual(['password', 'remember_token', 'a', 'n', 'f']);
    expect(phpStringMap(v)).toEqual({ a: 'X::class', n: '3', f: 'fn ($x) => [$x, 1]' });
    expect(phpStringList(readPhpValue("array('a', 'b\\'c')", 0))).toEqual(['a', "b'c"]);
    expect(readPhpValue("  'users';", 0)).toBe('users');
  });
});

describe('PHP source helpers', () => {
  it('uses, name resolution, generic arguments', async () => {
    const uses = await usesOf(fixture('app/Models/User.php'));
    expect(uses.get('Builder')).toBe('Illuminate\\Database\\Eloquent\\Builder');
    expect(uses.get('HasSlug')).toBe('App\\Traits\\HasSlug');
    expect(uses.has('HasSlug;')).toBe(false);
    expect(resolvePhpClass('Role', uses, 'App\\Models')).toBe('App\\Models\\Role');
    expect(resolvePhpClass('\\Foo\\Bar', uses, 'App\\Models')).toBe('Foo\\Bar');
    expect(resolvePhpClass('string', uses, 'App\\Models')).toBe('string');
    expect(resolveGenericArgs('BelongsToMany<Role>', uses, 'App\\Models')).toBe('BelongsToMany<App\\Models\\Role>');
    expect(
      await usesOf(
        ['<?php', 'use A\\B\\{C, D as E};', 'use \\G\\H;', 'use function f;', 'use I\\{', '    J,', '    K\\L,', '};', 'class X {', 'use T;', '}'].join('\n'),
      ),
    ).toEqual(
      new Map([
        ['C', 'A\\B\\C'],
        ['E', 'A\\B\\D'],
        ['H', 'G\\H'],
        ['J', 'I\\J'],
        ['L', 'I\\K\\L'],
      ]),
    );
  });

  it('PHPDoc, headers, attributes, class headers', () => {
    const doc = parsePhpDoc(
      '    /**\n     * Upper-cases the first letter of every word.\n     *\n     * @param string $text the text to format\n     * @param int $limit maximum length, 0 for none\n     * @return array<string, int> the result\n     */',
    );
    expect(doc.summary).toBe('Upper-cases the first letter of every word.');
    expect([...doc.params]).toEqual([
      ['text', { type: 'string', description: 'the text to format' }],
      ['limit', { type: 'int', description: 'maximum length, 0 for none' }],
    ]);
    expect(doc.returns).toEqual({ type: 'array<string, int>', description: 'the result' });
    expect(parsePhpDoc('/** @var int */').var).toBe('int');
    expect([
      ...parsePhpDoc('/**\n * @param array<int, string> $topics Topics covered.\n * @param $bare no type\n * @param string ...$rest\n */').params,
    ]).toEqual([
      ['topics', { type: 'array<int, string>', description: 'Topics covered.' }],
      ['bare', { description: 'no type' }],
      ['rest', { type: 'string' }],
    ]);
    const lines = ['    #[Scope]', '    protected function verified(Builder $query,', '        int &$n = 0, string ...$rest', '    ): void', '    {'];
    expect(parsePhpFunctionHeader(lines, 1)).toEqual({
      modifiers: ['protected'],
      name: 'verified',
      params: [
        { name: 'query', type: 'Builder' },
        { name: 'n', type: 'int', default: '0', optional: true, byRef: true },
        { name: 'rest', type: 'string', variadic: true },
      ],
      returnType: 'void',
      text: 'protected function verified(Builder $query, int &$n = 0, string ...$rest): void',
    });
    expect(parsePhpFunctionHeader(['public function __construct(private Formatter $formatter)', '{'], 0)?.params).toEqual([
      { name: 'formatter', type: 'Formatter', promoted: 'private' },
    ]);
  });

  it('infers Eloquent table names', () => {
    expect(inferTableName('User')).toBe('users');
    expect(inferTableName('UserProfile')).toBe('user_profiles');
    expect(inferTableName('TeamMember')).toBe('team_members');
    expect(inferTableName('Category')).toBe('categories');
    expect(inferTableName('Address')).toBe('addresses');
    expect(inferTableName('Person')).toBe('people');
  });
});

describe('eloquentInfo on the fixture User model', () => {
  it('reads arrays, casts() method, scopes, accessors, mutators and relations', async () => {
    const text = fixture('app/Models/User.php');
    const uses = await usesOf(text);
    const methods = [...text.matchAll(/(#\[Scope\]\s*)?(?:public|protected) function (\w+)\(([^)]*)\)(?::\s*([\w\\]+))?\s*\{([\s\S]*?)\n {4}\}/g)].map((m) => ({
      name: m[2]!,
      body: m[5]!,
      ...(m[4] ? { returnType: m[4] } : {}),
      attributes: m[1] ? ['Illuminate\\Database\\Eloquent\\Attributes\\Scope'] : [],
    }));
    const info = eloquentInfo('User', text, methods, (n) => resolvePhpClass(n, uses, 'App\\Models'));
    expect(info.table).toBe('users');
    expect(info.fillable).toEqual(['name', 'email', 'password']);
    expect(info.hidden).toEqual(['password', 'remember_token']);
    expect(info.appends).toEqual(['full_name']);
    expect(info.visible).toBeUndefined();
    expect(info.casts).toEqual({ email_verified_at: 'datetime', is_admin: 'boolean', settings: 'array' });
    expect(info.scopes).toEqual(['active', 'verified']);
    expect(info.attributes).toEqual(['full_name', 'first_name']);
    expect(Object.fromEntries(info.methodKinds)).toEqual({
      scopeActive: 'scope',
      verified: 'scope',
      getFullNameAttribute: 'accessor',
      setPasswordAttribute: 'mutator',
      firstName: 'accessor',
    });
    expect(info.relations).toEqual([
      { type: 'hasMany', target: 'Post', target_full_name: 'App\\Models\\Post', method: 'posts' },
      { type: 'belongsToMany', target: 'Role', target_full_name: 'App\\Models\\Role', method: 'roles' },
      { type: 'hasOne', target: 'Profile', target_full_name: 'App\\Models\\Profile', method: 'profile' },
      { type: 'hasManyThrough', target: 'Comment', target_full_name: 'App\\Models\\Comment', method: 'comments' },
    ]);
    expect(info.relationTypes.get('roles')).toBe('BelongsToMany<App\\Models\\Role>');
  });

  it('explicit table, $casts property, morphTo', () => {
    expect(eloquentInfo('Profile', fixture('app/Models/Profile.php'), [], (n) => n).table).toBe('user_profiles');
    expect(eloquentInfo('Post', fixture('app/Models/Post.php'), [], (n) => n).casts).toEqual({ published_at: 'datetime', meta: 'json' });
    // morphTo: Laravel's defaults from the method name (snake case), or the names given, positional or named.
    expect(relationCall('return $this->morphTo();', 'imageable')).toEqual({
      type: 'morphTo',
      morph: { morph_name: 'imageable', type_column: 'imageable_type', id_column: 'imageable_id' },
    });
    expect(relationCall('return $this->morphTo();', 'parentItem')!.morph).toEqual({
      morph_name: 'parentItem',
      type_column: 'parent_item_type',
      id_column: 'parent_item_id',
    });
    expect(relationCall("return $this->morphTo('subject', 'subject_kind', 'subject_key');", 'owner')!.morph).toEqual({
      morph_name: 'subject',
      type_column: 'subject_kind',
      id_column: 'subject_key',
    });
    expect(relationCall("return $this->morphTo(name: 'target', id: 'target_uuid');", 'x')!.morph).toEqual({
      morph_name: 'target',
      type_column: 'target_type',
      id_column: 'target_uuid',
    });
    expect(relationCall("return $this->morphMany(Comment::class, 'commentable');")).toEqual({
      type: 'morphMany',
      target: 'Comment',
      morph: { morph_name: 'commentable', type_column: 'commentable_type', id_column: 'commentable_id' },
    });
    expect(relationCall("return $this->morphToMany(Tag::class, 'taggable');")).toEqual({
      type: 'morphToMany',
      target: 'Tag',
      morph: { morph_name: 'taggable' },
    });
    expect(relationCall('return $this->hasMany(related: Post::class);')).toEqual({ type: 'hasMany', target: 'Post' });
    expect(relationCall("return $this->belongsTo('App\\\\Models\\\\User', 'user_id');")).toEqual({ type: 'belongsTo', target: 'App\\Models\\User' });
  });
});
