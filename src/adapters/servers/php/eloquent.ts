/**
 * Laravel/Eloquent model facts from a model class's source: table (explicit `$table` or the
 * inferred plural snake case), `$fillable` / `$hidden` / `$visible` / `$appends`, casts (the
 * `$casts` property and the `casts()` method), scopes (`scopeActive` and `#[Scope]`), accessors
 * (`getFullNameAttribute` and methods returning `Attribute`), mutators, and relation methods
 * (`$this->hasMany(Post::class)`) with their related model.
 */
import type { RelationDescriptor } from '../../../schema/descriptors.js';
import { inferTableName, propertyInitialiser, snake } from '../../php/source.js';
import { phpStringList, phpStringMap, type PhpValue, phpValueText, readPhpArguments, readPhpValue } from './array-reader.js';

export const RELATION_METHODS = [
  'hasOne',
  'hasMany',
  'belongsTo',
  'belongsToMany',
  'morphTo',
  'morphOne',
  'morphMany',
  'morphToMany',
  'morphedByMany',
  'hasOneThrough',
  'hasManyThrough',
] as const;

/** Relation method → the Relations class it returns (for `BelongsToMany<App\Models\Role>`). */
const RELATION_CLASS: Record<string, string> = {
  hasOne: 'HasOne',
  hasMany: 'HasMany',
  belongsTo: 'BelongsTo',
  belongsToMany: 'BelongsToMany',
  morphTo: 'MorphTo',
  morphOne: 'MorphOne',
  morphMany: 'MorphMany',
  morphToMany: 'MorphToMany',
  morphedByMany: 'MorphToMany',
  hasOneThrough: 'HasOneThrough',
  hasManyThrough: 'HasManyThrough',
};

/** Classes that are Eloquent models by definition (roots of the extends chain). */
export const MODEL_ROOTS = new Set([
  'Illuminate\\Database\\Eloquent\\Model',
  'Illuminate\\Foundation\\Auth\\User',
  'Illuminate\\Database\\Eloquent\\Relations\\Pivot',
  'Illuminate\\Database\\Eloquent\\Relations\\MorphPivot',
]);

export interface ModelMethod {
  name: string;
  /** Source text of the body (between the braces). */
  body: string;
  /** Declared return type as written (`Attribute`, `HasMany`). */
  returnType?: string;
  /** Attribute names (`Scope`, `Illuminate\...\Scope`). */
  attributes: string[];
}

export type ModelMethodKind = 'scope' | 'accessor' | 'mutator';

export interface EloquentInfo {
  table: string;
  fillable?: string[];
  hidden?: string[];
  visible?: string[];
  appends?: string[];
  casts?: Record<string, string>;
  scopes?: string[];
  attributes?: string[];
  relations: RelationDescriptor[];
  methodKinds: Map<string, ModelMethodKind>;
  /** Relation method → `HasMany<App\Models\Post>`. */
  relationTypes: Map<string, string>;
}

function lcfirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function property(classText: string, name: string): PhpValue | undefined {
  const at = propertyInitialiser(classText, name);
  return at < 0 ? undefined : readPhpValue(classText, at);
}

function returnedValue(body: string): PhpValue | undefined {
  const m = /\breturn\b/.exec(body);
  return m ? readPhpValue(body, m.index + m[0].length) : undefined;
}

/** `Post::class` → `Post`; `'App\Models\Post'` → `App\Models\Post`. */
function classArgument(v: PhpValue): string | undefined {
  if (typeof v === 'string') return v.replace(/^\\/, '');
  if (v && typeof v === 'object' && v.kind === 'expr') return /^(\\?[\w\\]+)::class$/.exec(v.text)?.[1];
  return undefined;
}

function isAttributeReturn(t: string | undefined): boolean {
  return !!t && /(^|\\)Attribute$/.test(t.replace(/^\?/, ''));
}

/**
 * `resolve` maps a class name as written in the model's file to its fully qualified name (through
 * the file's `use` statements and namespace).
 */
export function eloquentInfo(className: string, classText: string, methods: ModelMethod[], resolve: (name: string) => string): EloquentInfo {
  const info: EloquentInfo = { table: inferTableName(className), relations: [], methodKinds: new Map(), relationTypes: new Map() };
  const table = property(classText, 'table');
  if (typeof table === 'string' && table) info.table = table;
  for (const key of ['fillable', 'hidden', 'visible', 'appends'] as const) {
    const v = property(classText, key);
    if (v !== undefined) info[key] = phpStringList(v);
  }
  const casts: Record<string, string> = { ...phpStringMap(property(classText, 'casts')) };
  const scopes: string[] = [];
  const attributes: string[] = [];
  for (const m of methods) {
    if (m.name === 'casts') Object.assign(casts, phpStringMap(returnedValue(m.body)));
    const scope = /^scope([A-Z]\w*)$/.exec(m.name);
    if (scope || m.attributes.some((a) => /(^|\\)Scope$/.test(a))) {
      scopes.push(scope ? lcfirst(scope[1]!) : m.name);
      info.methodKinds.set(m.name, 'scope');
      continue;
    }
    const getter = /^get([A-Z]\w*)Attribute$/.exec(m.name);
    if (getter) {
      attributes.push(snake(getter[1]!));
      info.methodKinds.set(m.name, 'accessor');
      continue;
    }
    if (/^set[A-Z]\w*Attribute$/.test(m.name)) {
      info.methodKinds.set(m.name, 'mutator');
      continue;
    }
    if (isAttributeReturn(m.returnType)) {
      // Attribute::make(get: ..., set: ...): an accessor when it has a getter, else a mutator.
      const hasGet = /\bget\s*:/.test(m.body) || /Attribute::get\s*\(/.test(m.body) || !/\bset\s*:/.test(m.body);
      if (hasGet) attributes.push(snake(m.name));
      info.methodKinds.set(m.name, hasGet ? 'accessor' : 'mutator');
      continue;
    }
    const rel = relationCall(m.body, m.name);
    if (rel) {
      const target = rel.target ? resolve(rel.target) : undefined;
      info.relations.push({
        type: rel.type,
        // morphTo relates to whichever model the row's type column names: no one class.
        target: rel.target ? rel.target.split('\\').pop()! : rel.type === 'morphTo' ? 'morph' : '*',
        ...(target ? { target_full_name: target } : {}),
        method: m.name,
        ...(rel.morph ? { metadata: { polymorphic: true, ...rel.morph } } : {}),
      });
      info.relationTypes.set(m.name, target ? `${RELATION_CLASS[rel.type]}<${target}>` : RELATION_CLASS[rel.type]!);
    }
  }
  for (const [k, v] of Object.entries(casts)) {
    const cls = /^(\\?[\w\\]+)::class$/.exec(v)?.[1];
    if (cls) casts[k] = resolve(cls);
  }
  if (Object.keys(casts).length) info.casts = casts;
  if (scopes.length) info.scopes = scopes;
  if (attributes.length) info.attributes = attributes;
  return info;
}

export interface MorphInfo {
  /** The morph name: `commentable` for the `commentable_type` / `commentable_id` columns. */
  morph_name?: string;
  type_column?: string;
  id_column?: string;
}

/** Argument `index` (or the named argument) as a plain string, when it is one. */
function stringArg(args: ReturnType<typeof readPhpArguments>, index: number, name: string): string | undefined {
  const v = args.named.get(name) ?? args.positional[index];
  return typeof v === 'string' && v ? v : undefined;
}

/**
 * The first `$this->hasMany(Target::class, ...)` style call in a method body. Polymorphic ones
 * carry their morph columns, with Laravel's defaults: `morphTo($name = <method name>, $type =
 * "{name}_type", $id = "{name}_id")`; `morphOne/morphMany(Related, $name, $type, $id)`,
 * `morphToMany/morphedByMany(Related, $name)`.
 */
export function relationCall(body: string, methodName?: string): { type: string; target?: string; morph?: MorphInfo } | undefined {
  const re = new RegExp(String.raw`\$this\s*->\s*(${RELATION_METHODS.join('|')})\s*\(`);
  const m = re.exec(body);
  if (!m) return undefined;
  const type = m[1]!;
  const args = readPhpArguments(body, m.index + m[0].length);
  if (type === 'morphTo') {
    // Model::morphTo: `$name ?: guessBelongsToRelation()` (the method's name), then getMorphs(Str::snake($name), $type, $id).
    const name = stringArg(args, 0, 'name') ?? methodName;
    const morph: MorphInfo = {};
    if (name) {
      morph.morph_name = name;
      morph.type_column = stringArg(args, 1, 'type') ?? `${snake(name)}_type`;
      morph.id_column = stringArg(args, 2, 'id') ?? `${snake(name)}_id`;
    }
    return { type, morph };
  }
  const first = args.named.get('related') ?? args.positional[0];
  const target = first === undefined ? undefined : classArgument(first);
  let morph: MorphInfo | undefined;
  if (type.startsWith('morph')) {
    const name = stringArg(args, 1, 'name');
    if (name) {
      morph = { morph_name: name };
      if (type === 'morphOne' || type === 'morphMany') {
        morph.type_column = stringArg(args, 2, 'type') ?? `${name}_type`;
        morph.id_column = stringArg(args, 3, 'id') ?? `${name}_id`;
      }
    }
  }
  return { type, ...(target ? { target } : {}), ...(morph ? { morph } : {}) };
}

export { phpValueText };
