/**
 * find_definition of a name several declarations share equally (the same function in two
 * packages, a helper each test file declares): the answer is a list, so it lists them, ranked,
 * instead of failing with AMBIGUOUS_SYMBOL and costing the caller a second call. A few are listed
 * (each straight from the catalog: a declaration is its own definition), `total` counts them all,
 * and a warning says how to pick one. Operations that need one target still fail on a tie.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../call.js';
import { declarationEntry, type TiedDefinition } from './definition-entry.js';
import { alternativeOf } from './resolution-policy.js';
import type { NameTie } from './resolve.js';

/** Tied declarations listed in full; the others count in `total` and are in `_meta.alternatives`. */
export const MAX_TIED_DEFINITIONS = 5;

/** The entry of a tied declaration, its file read once per answer (no server: the catalog has it). */
async function entryOf(call: ServiceCall, s: CatalogSymbol, texts: Map<string, string[]>): Promise<TiedDefinition> {
  let lines = texts.get(s.file);
  if (!lines) {
    const abs = path.join(call.root, s.file);
    const text = await readFile(abs, 'utf8');
    call.meta.addSourceFile(abs, Buffer.byteLength(text));
    texts.set(s.file, (lines = text.split(/\r\n|\r|\n/)));
  }
  return declarationEntry(s, lines);
}

/** `warn`: say the tie (false: one declaration, answered from the catalog for another reason). */
export async function tiedDefinitions(call: ServiceCall, name: string, tie: NameTie, warn = true): Promise<{ definitions: TiedDefinition[]; total: number }> {
  const shown = tie.leaders.slice(0, MAX_TIED_DEFINITIONS);
  const texts = new Map<string, string[]>();
  const definitions: TiedDefinition[] = [];
  for (const s of shown) definitions.push(await entryOf(call, s, texts));
  const rest = tie.ranked.filter((c) => !shown.includes(c.symbol));
  if (rest.length) call.meta.addAlternatives(rest.slice(0, 50).map(alternativeOf));
  if (warn)
    call.meta.warn(
      `${tie.leaders.length} declarations named ${name} tie (kind, scope, file role and case): ${shown.length} listed` +
        `${rest.length ? `, the others in _meta.alternatives` : ''}; ask with a symbol_id (or narrow with kind, package, class_name) for one`,
    );
  return { definitions, total: tie.leaders.length };
}
