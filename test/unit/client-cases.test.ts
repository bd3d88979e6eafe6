/**
 * The client matrix's cases (test/helpers/mcp-client-cases.mjs) and the operations' contracts agree:
 * every operation has calls, its `ok` calls are valid input, and the errors its contract lists (and
 * the reference docs print) are exactly the codes its error calls provoke.
 */
import { describe, expect, it } from 'vitest';

import { operations } from '../../src/operations/registry.js';
import { casesOf, CLIENT_CASES } from '../helpers/mcp-client-cases.mjs';

const WS = { root: '/ws', upstream: '/upstream', folder: '/folder' };

describe('client matrix cases', () => {
  it('has calls for every operation and for no other', () => {
    expect(Object.keys(CLIENT_CASES).sort()).toEqual(operations.map((o) => o.name).sort());
  });

  it.each(operations.map((o) => [o.name, o] as const))('%s: ok calls are valid input; listed errors are the ones provoked', (_name, op) => {
    const cases = casesOf(op.name, WS);
    expect(cases.ok.length).toBeGreaterThan(0);
    for (const args of cases.ok) expect(op.input.safeParse(args).success, JSON.stringify(args)).toBe(true);
    const provoked = new Set((cases.errors ?? []).map((e) => e.code).filter((c) => c !== 'INVALID_INPUT'));
    expect([...(op.callerErrors ?? [])].sort()).toEqual([...provoked].sort());
  });
});
