/**
 * Which workspace methods a method overrides: the members with its name of the types its class
 * extends, transitively. A base type is one the server's definition of a name in the class's
 * declaration header lands on (type-relations.ts: never a name match). A call through the base
 * (`self.hook()` in `Base.run`) dispatches to every override, and pyright's references of an
 * override do not include the base's call sites: without this an override the workspace calls
 * looks unreferenced.
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { headerReferences, membersNamed } from '../../service/relations/type-relations.js';

/** Levels of base types followed (the same bound as type_hierarchy's). */
const MAX_LEVELS = 5;

export class BaseMethods {
  /** Workspace supertypes per type, asked once per answer. */
  private readonly supertypes = new Map<string, Promise<CatalogSymbol[]>>();

  constructor(
    private readonly call: ServiceCall,
    private readonly parentOf: (id: string) => CatalogSymbol | undefined,
  ) {}

  /** The workspace methods `method` overrides, nearest base first (none for a function, nor through an embedding). */
  async overridden(method: CatalogSymbol): Promise<CatalogSymbol[]> {
    if (method.kind !== 'method' || !method.parent) return [];
    const owner = this.parentOf(method.parent);
    if (!owner) return [];
    const out: CatalogSymbol[] = [];
    const seen = new Set([owner.symbol_id]);
    let level = [owner];
    for (let depth = 0; depth < MAX_LEVELS && level.length; depth++) {
      const next: CatalogSymbol[] = [];
      for (const t of level) {
        for (const base of await this.basesOf(t)) {
          if (seen.has(base.symbol_id)) continue;
          seen.add(base.symbol_id);
          out.push(...(await membersNamed(this.call, base, method.name)).filter((m) => m.kind === 'method'));
          next.push(base);
        }
      }
      level = next;
    }
    return out;
  }

  private basesOf(type: CatalogSymbol): Promise<CatalogSymbol[]> {
    let p = this.supertypes.get(type.symbol_id);
    if (!p) {
      // an embedded type (Go) is no base: a call through it runs its own method, never the embedder's
      p = headerReferences(this.call, type, (b) => b.relation !== 'embeds').then((refs) => refs.flatMap((r) => (r.target ? [r.target] : [])));
      this.supertypes.set(type.symbol_id, p);
    }
    return p;
  }
}
