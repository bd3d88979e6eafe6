// Hover strings captured from typescript-language-server 5.3 + TypeScript 6.0 on fixtures/ts-app.
import { describe, expect, it } from 'vitest';

import { parseTsMemberTail, parseTsModifiers, tsDeclarationHeader } from '../../src/adapters/servers/typescript/declaration.js';
import { fromTsHover, parseTsMemberDisplay } from '../../src/adapters/servers/typescript/hover.js';
import { parseTsCallable, parseTsParameters } from '../../src/adapters/servers/typescript/signature.js';

const LOGIN =
  '\n```typescript\n(method) User.login(when?: Date): number\n```\nRecords a login.\n\n*@param* `when` — The login time.  \n\n*@returns* — The new login count.';
const FORMAT =
  '\n```typescript\nfunction formatName(first: string, last: string): string\n```\nFormats a person\'s name for display.\n\n*@param* `first` — Given name.  \n\n*@param* `last` — Family name.  \n\n*@returns* — The name as "Last, First".';
const SCALE = '\n```typescript\nfunction scale(value: number, factor: number): number (+1 overload)\n```\nScales a number.';
const GETTER = '\n```typescript\n(getter) Registry<T extends Named>.size: number\n```\n';
const OPTIONAL = '\n```typescript\n(property) User.nickname?: string | undefined\n```\n';
const ENUM_MEMBER = '\n```typescript\n(enum member) Color.Red = "red"\n```\n';
const GENERIC_METHOD = '\n```typescript\n(method) Repository<T, K extends EntityId = string>.get(id: K): T | undefined\n```\n';

describe('fromTsHover', () => {
  it('splits kind, display, description and JSDoc tags', () => {
    expect(fromTsHover(LOGIN)).toEqual({
      declKind: 'method',
      display: 'User.login(when?: Date): number',
      description: 'Records a login.',
      params: { when: 'The login time.' },
      returns: 'The new login count.',
      tags: [
        { name: 'param', text: 'when The login time.' },
        { name: 'returns', text: 'The new login count.' },
      ],
    });
    const f = fromTsHover(FORMAT);
    expect(f.declKind).toBe('function');
    expect(f.params).toEqual({ first: 'Given name.', last: 'Family name.' });
    expect(f.returns).toBe('The name as "Last, First".');
  });

  it('keeps the overload count out of the signature parts', () => {
    const h = fromTsHover(SCALE);
    expect(parseTsCallable(h.display)).toEqual({
      head: 'scale',
      parameters: [
        { name: 'value', type: 'number' },
        { name: 'factor', type: 'number' },
      ],
      returnType: 'number',
      moreOverloads: 1,
    });
  });

  it('reads member displays: getter, optional (| undefined dropped), enum value, generic owner', () => {
    expect(fromTsHover(GETTER).declKind).toBe('getter');
    expect(parseTsMemberDisplay(fromTsHover(GETTER).display)).toEqual({ name: 'size', type: 'number' });
    expect(parseTsMemberDisplay(fromTsHover(OPTIONAL).display)).toEqual({ name: 'nickname', type: 'string', optional: true });
    expect(parseTsMemberDisplay(fromTsHover(ENUM_MEMBER).display)).toEqual({ name: 'Red', value: '"red"' });
    expect(parseTsCallable(fromTsHover(GENERIC_METHOD).display)).toEqual({
      head: 'Repository<T, K extends EntityId = string>.get',
      parameters: [{ name: 'id', type: 'K' }],
      returnType: 'T | undefined',
    });
  });
});

describe('parseTsParameters', () => {
  it('parses defaults, optional, rest, modifiers, function types and object literals', () => {
    expect(parseTsParameters("value: string, width = 8, fill: string = ' ', ...parts: string[]")).toEqual([
      { name: 'value', type: 'string' },
      { name: 'width', default: '8', optional: true },
      { name: 'fill', type: 'string', default: "' '", optional: true },
      { name: 'parts', type: 'string[]', variadic: true },
    ]);
    expect(parseTsParameters('public readonly radius: number, color?: Color')).toEqual([
      { name: 'radius', type: 'number', modifiers: ['public', 'readonly'] },
      { name: 'color', type: 'Color', optional: true },
    ]);
    expect(parseTsParameters('cb: (a: number, b: string) => void, opts: { x: number; y?: string } = { x: 1 }')).toEqual([
      { name: 'cb', type: '(a: number, b: string) => void' },
      { name: 'opts', type: '{ x: number; y?: string }', default: '{ x: 1 }', optional: true },
    ]);
  });

  it('cuts a source declaration at its body', () => {
    expect(parseTsCallable('firstOf<T>(items: readonly T[]): T | undefined {\n  return items[0];\n}')).toEqual({
      head: 'firstOf',
      typeParameters: '<T>',
      parameters: [{ name: 'items', type: 'readonly T[]' }],
      returnType: 'T | undefined',
    });
  });
});

describe('TS declaration text', () => {
  it('finds modifiers before a name, skipping JSDoc and decorators', () => {
    expect(parseTsModifiers('/** Surface. */\n  abstract ')).toEqual(['abstract']);
    expect(parseTsModifiers('@Input() protected static readonly ')).toEqual(['protected', 'static', 'readonly']);
    expect(parseTsModifiers('export async function ')).toEqual(['export', 'async']);
  });

  it('reads member tails', () => {
    expect(parseTsMemberTail('?: string;')).toEqual({ optional: true, type: 'string' });
    expect(parseTsMemberTail(': boolean = true;')).toEqual({ type: 'boolean', initializer: 'true' });
    expect(parseTsMemberTail(" = 'red',")).toEqual({ initializer: "'red'" });
  });

  it('cuts a declaration at its body (variables and other non-type declarations)', () => {
    expect(tsDeclarationHeader('export const table = {\n  a: 1,\n};')).toBe('export const table =');
  });
});
