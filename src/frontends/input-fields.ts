/**
 * What an operation's input looks like to a command line (CLI flags, REPL words): derived from the
 * JSON Schema of its public input schema, so every front-end reads the same table and none has
 * per-operation code.
 */
import { z } from 'zod';

import { LspgateError } from '../errors/errors.js';
import { publicInputSchema } from '../operations/runner.js';
import type { Operation } from '../operations/types.js';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';

export interface InputField {
  name: string;
  type: FieldType;
  /** For arrays: the type of one element. */
  itemType?: FieldType;
  enum?: string[];
  description?: string;
  required: boolean;
  default?: unknown;
}

/** The part of a JSON Schema the front-ends read (fields, the reference page). */
export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** JSON Schema (draft 2020-12) of the whole public input; also what the sidecar publishes. */
export function inputJsonSchema(op: Operation): Record<string, unknown> {
  return z.toJSONSchema(publicInputSchema(op), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

export function outputJsonSchema(op: Operation): Record<string, unknown> {
  return z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
}

const cache = new WeakMap<Operation, InputField[]>();

export function inputFields(op: Operation): InputField[] {
  const hit = cache.get(op);
  if (hit) return hit;
  const schema = inputJsonSchema(op) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const type = typeOf(prop);
    const field: InputField = { name, type, required: required.has(name) };
    if (type === 'array') field.itemType = prop.items ? typeOf(prop.items) : 'unknown';
    const e = enumOf(prop);
    if (e) field.enum = e;
    if (prop.description) field.description = prop.description;
    if (prop.default !== undefined) field.default = prop.default;
    return field;
  });
  cache.set(op, fields);
  return fields;
}

function typeOf(s: JsonSchema): FieldType {
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  if (t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' || t === 'array' || t === 'object') return t;
  const alt = s.anyOf ?? s.oneOf;
  // A union of a scalar and something else: the first member with a type decides how a word is read.
  if (alt) for (const a of alt) if (typeOf(a) !== 'unknown') return typeOf(a);
  if (s.enum?.every((v) => typeof v === 'string')) return 'string';
  return 'unknown';
}

function enumOf(s: JsonSchema): string[] | undefined {
  if (s.enum && s.enum.every((v) => typeof v === 'string')) return s.enum as string[];
  for (const a of s.anyOf ?? s.oneOf ?? []) {
    const e = enumOf(a);
    if (e) return e;
  }
  return undefined;
}

/**
 * Reads one command-line word as the field's type. Numbers and booleans are coerced; objects and
 * unknown types accept JSON. What does not parse is INVALID_INPUT naming the field.
 */
export function coerceWord(field: InputField, word: string, asItem = false): unknown {
  const type = asItem ? (field.itemType ?? 'unknown') : field.type;
  const bad = (expected: string) =>
    new LspgateError('INVALID_INPUT', `--${field.name} expects ${expected}, got ${JSON.stringify(word.slice(0, 100))}`, {
      field: field.name,
      expected,
    });
  switch (type) {
    case 'string':
      return word;
    case 'integer':
    case 'number': {
      const n = Number(word);
      if (word.trim() === '' || !Number.isFinite(n)) throw bad(type === 'integer' ? 'an integer' : 'a number');
      return n;
    }
    case 'boolean':
      if (/^(true|yes|on|1)$/i.test(word)) return true;
      if (/^(false|no|off|0)$/i.test(word)) return false;
      throw bad('true or false');
    case 'array':
      // A single word for an array field: JSON array, or one element.
      if (word.trimStart().startsWith('[')) return parseJson(word, () => bad('a JSON array'));
      return [coerceWord(field, word, true)];
    case 'object':
      return parseJson(word, () => bad('a JSON object'));
    case 'unknown':
      // JSON when it parses (numbers, objects), else the word itself.
      try {
        return JSON.parse(word);
      } catch {
        return word;
      }
  }
}

function parseJson(word: string, onError: () => LspgateError): unknown {
  try {
    return JSON.parse(word);
  } catch {
    throw onError();
  }
}

/** `max-results` and `max_results` name the same field. */
export function fieldByFlag(fields: InputField[], flag: string): InputField | undefined {
  const norm = flag.replace(/-/g, '_');
  return fields.find((f) => f.name === flag || f.name === norm);
}

/** One line per field for help texts: `--name <type> (required) description`. */
export function describeFields(fields: InputField[]): string[] {
  return fields.map((f) => {
    const type = f.enum ? f.enum.join('|') : f.type === 'array' ? `${f.itemType ?? 'value'}...` : f.type;
    const flags = [f.required ? 'required' : '', f.default !== undefined ? `default ${JSON.stringify(f.default)}` : ''].filter(Boolean).join(', ');
    return `  --${f.name} <${type}>${flags ? ` (${flags})` : ''}${f.description ? `  ${f.description}` : ''}`;
  });
}
