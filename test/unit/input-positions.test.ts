// Lines and columns are 1-based everywhere: every operation input that takes a `line` or a
// `column` publishes `minimum: 1` in its JSON Schema (what clients and models read), and the
// runner refuses 0 as INVALID_INPUT naming the field before any handler runs.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { operations } from '../../src/operations/registry.js';
import { publicInputSchema } from '../../src/operations/runner.js';

const POSITION_FIELDS = ['line', 'column'];

function positionFields(): { op: string; field: string; schema: Record<string, unknown> }[] {
  const out: { op: string; field: string; schema: Record<string, unknown> }[] = [];
  for (const op of operations) {
    const json = z.toJSONSchema(publicInputSchema(op), { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>> };
    for (const [field, schema] of Object.entries(json.properties ?? {})) {
      if (POSITION_FIELDS.includes(field)) out.push({ op: op.name, field, schema });
    }
  }
  return out;
}

describe('line and column inputs', () => {
  const fields = positionFields();

  it('exist on the symbol-taking operations and open_at', () => {
    const ops = new Set(fields.map((f) => f.op));
    for (const name of ['find_definition', 'find_references', 'find_callers', 'find_callees', 'open_at']) expect(ops).toContain(name);
  });

  it('publish minimum 1 in every input JSON Schema', () => {
    for (const f of fields) expect({ op: f.op, field: f.field, minimum: f.schema.minimum }).toEqual({ op: f.op, field: f.field, minimum: 1 });
  });

  it('refuse 0 at validation, naming the field', () => {
    for (const op of operations) {
      const shape = publicInputSchema(op).shape as Record<string, unknown>;
      for (const field of POSITION_FIELDS.filter((f) => f in shape)) {
        const r = publicInputSchema(op).safeParse({ file: 'a.ts', line: 1, [field]: 0 });
        expect(r.success, `${op.name}.${field} = 0`).toBe(false);
        expect(r.error?.issues.some((i) => i.path.join('.') === field)).toBe(true);
      }
    }
  });
});
