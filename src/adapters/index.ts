/**
 * Adapter registry: servers.json names an adapter per server (`adapter`); unknown names fall back
 * to the generic adapter. No adapter is listed here: the build generates adapters.generated.ts,
 * importing every `servers/<folder>/adapter.ts`, named by its folder
 * (scripts/gen-language-registry.mjs, which also refuses a shipped server naming a missing adapter).
 */
import { ADAPTER_MODULES, SHIPPED_SERVERS } from './adapters.generated.js';
import { genericAdapter } from './generic.js';
import type { AdapterModule, LanguageAdapter, ShippedServer } from './types.js';

function isAdapter(value: unknown): value is LanguageAdapter {
  const a = value as Partial<LanguageAdapter> | null;
  return typeof a === 'object' && a !== null && typeof a.name === 'string' && Array.isArray(a.languages) && typeof a.language === 'function';
}

/** The one adapter a folder's adapter module exports (its default export may name it again). */
function adapterOf(folder: string, module: AdapterModule): LanguageAdapter {
  const found = new Set(Object.values(module).filter(isAdapter));
  if (found.size !== 1) throw new Error(`src/adapters/servers/${folder}/adapter.ts exports ${found.size} language adapters; it must export one`);
  return [...found][0]!;
}

const adapters = new Map<string, LanguageAdapter>([
  ['generic', genericAdapter],
  ...Object.entries(ADAPTER_MODULES).map(([folder, module]) => [folder, adapterOf(folder, module)] as const),
]);

export function adapterFor(name: string | undefined): LanguageAdapter {
  return (name && adapters.get(name)) || genericAdapter;
}

/** The servers lspgate ships in servers.json (a user's or workspace's file may add or change them). */
export function shippedServers(): readonly ShippedServer[] {
  return SHIPPED_SERVERS;
}
