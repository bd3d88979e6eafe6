/**
 * Adapter registry: servers.json names an adapter per server (`adapter`); unknown names fall back
 * to the generic adapter. Language adapters add one line each here.
 */
import { genericAdapter } from './generic.js';
import { goAdapter } from './go/adapter.js';
import { phpAdapter } from './php/adapter.js';
import { pythonAdapter } from './python/adapter.js';
import type { LanguageAdapter } from './types.js';
import { typescriptAdapter } from './typescript/adapter.js';

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
