/** The catalog's query inputs, checked before any lookup: they are caller input. */
import { LspgateError } from '../errors/errors.js';

/** A symbol name to look up: a non-empty string within `maxQueryLength`. */
export function checkName(name: unknown, maxQueryLength: number): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') throw new LspgateError('INVALID_INPUT', 'symbol name must be a non-empty string');
  if (name.length > maxQueryLength) throw new LspgateError('INVALID_INPUT', `symbol name is longer than maxQueryLength ${maxQueryLength}`);
}

/** The file part of a symbol id (`path::Qualified.name#kind`); INVALID_INPUT for anything else. */
export function idFile(symbolId: unknown): string {
  if (typeof symbolId !== 'string' || !symbolId.includes('::')) {
    throw new LspgateError('INVALID_INPUT', `not a symbol id (expected path::Qualified.name#kind): ${String(symbolId).slice(0, 200)}`);
  }
  return symbolId.slice(0, symbolId.indexOf('::'));
}
