// search_symbols' order of partial matches: first how much of the query the name holds (every
// word, some, none), then source before tests and locals last, then the text score. Scope and
// visibility order the declarations a name means (the exact tier), not how well a text matches:
// ahead of the score, on GOROOT `idle timeout` listed the field Server.IdleTimeout (the best score)
// 48th, after top-level functions that matched by their docs only.
import { describe, expect, it } from 'vitest';

import { rankSymbols } from '../../src/catalog/symbol-search.js';
import type { CatalogSymbol } from '../../src/core/catalog.js';
import { nameHold, policyOrder } from '../../src/service/navigation/resolution-policy.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

function sym(file: string, qualified: string, kind: CatalogSymbol['kind'], extra: Partial<CatalogSymbol> = {}): CatalogSymbol {
  const parent = qualified.includes('.') ? `${qualified.split('.')[0]}#struct` : undefined;
  return { ...catalogSymbol(file, 'go', qualified, kind, 1, 2, parent), ...extra };
}

describe('search_symbols, partial matches', () => {
  const server = sym('net/http/server.go', 'Server', 'struct');
  const field = sym('net/http/server.go', 'Server.IdleTimeout', 'field', {
    docstring: 'IdleTimeout is the maximum amount of time to wait for the next request',
  });
  const test = sym('net/http/serve_test.go', 'TestServerIdleTimeout', 'function');
  const docOnly = sym('crypto/tls/tls.go', 'DialWithDialer', 'function', { docstring: 'a timeout ... idle connections' });
  const half = sym('net/http/server.go', 'TimeoutHandler', 'function', { docstring: 'an idle handler' });
  const parents = new Map([server, field, test, docOnly, half].map((s) => [s.symbol_id, s]));
  const order = (q: string) =>
    policyOrder(rankSymbols([server, field, test, docOnly, half], q), q, (id) => parents.get(id)).map((h) => h.symbol.qualified_name);

  it('a name holding every word comes first, a source member before a top-level test', () => {
    expect(order('idle timeout')).toEqual(['Server.IdleTimeout', 'TestServerIdleTimeout', 'TimeoutHandler', 'DialWithDialer']);
  });

  it('the name asked for still comes first, in the declaration order of its tier', () => {
    expect(order('IdleTimeout')[0]).toBe('Server.IdleTimeout');
  });

  it('nameHold: all, some, none of the words', () => {
    expect([
      nameHold('idletimeout', ['idle', 'timeout']),
      nameHold('timeouthandler', ['idle', 'timeout']),
      nameHold('dialwithdialer', ['idle', 'timeout']),
    ]).toEqual([0, 1, 2]);
  });
});
