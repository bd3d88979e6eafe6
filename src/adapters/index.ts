/**
 * Adapter registry: servers.json names an adapter per server (`adapter`); unknown names fall back
 * to the generic adapter. Language adapters add one line each here.
 */
import { genericAdapter } from './generic.js';
import { goAdapter } from './go.js';
import { phpAdapter } from './php.js';
import { pythonAdapter } from './python.js';
import type { LanguageAdapter } from './types.js';
import { typescriptAdapter } from './typescript.js';

const adapters = new Map<string, LanguageAdapter>([
  ['generic', genericAdapter],
  ['typescript', typescriptAdapter],
  ['go', goAdapter],
  ['python', pythonAdapter],
  ['php', phpAdapter],
]);

export function adapterFor(name: string | undefined): LanguageAdapter {
  return (name && adapters.get(name)) || genericAdapter;
}

export function adapterNames(): string[] {
  return [...adapters.keys()];
}
