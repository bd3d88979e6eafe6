/**
 * The JSON Schemas `tools/list` publishes, made small: every listed schema costs each turn of an
 * agent's context. zod's output is valid but verbose: a `$schema` URL per schema, ±2^53-1 bounds on
 * every integer (zod's safe-integer range, which JSON numbers hold anyway), `additionalProperties:
 * false` on every result object, string length caps no honest call comes near, and the whole `_meta`
 * envelope (about 2 KB) in every output schema. Output schemas keep the shape of a result (field
 * names and types), not its prose or which fields are always there. Nothing here loosens validation:
 * the operation runner checks every call's input, and every result, with the zod schemas themselves.
 */

import { DEFAULT_MAX_MS } from '../../service/deadline.js';

type Json = Record<string, unknown>;

/**
 * What the `_meta` envelope of every result holds (docs/operations-guide.md "The _meta envelope"), in
 * a line: said once in the server instructions, not in every tool's output schema.
 */
export const META_SUMMARY = 'timing_ms, workspace, truncated, next_cursor, tokens_saved, index_state, servers, warnings, limits_hit, alternatives';

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** zod's default bounds of `.int()`: said by the type already. */
function dropSafeIntegerBounds(node: Json): void {
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
}

function compactNode(node: unknown, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => compactNode(n, output));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    // String length caps guard against abuse (a 4 KiB path, a 2,000-character query): no honest call
    // comes near them, and the runner still answers INVALID_INPUT past them.
    if (k === 'maxLength' && node.type === 'string') continue;
    // JSON object keys are strings
    if (k === 'propertyNames' && isObject(v) && v.type === 'string' && Object.keys(v).length === 1) continue;
    // A result object may gain fields in a later version; a client must not reject it for that.
    if (output && k === 'additionalProperties' && v === false) continue;
    // A result shows its values: the meaning of its fields is the tool description's and the docs',
    // and which of them an answer leaves out, the answer itself.
    if (output && ((k === 'description' && typeof v === 'string') || (k === 'required' && Array.isArray(v)))) continue;
    out[k] = compactNode(v, output);
  }
  dropSafeIntegerBounds(out);
  return out;
}

/**
 * What `wait_ms` means, in a line: said once in the server instructions, not in each of the tools
 * that take it (its description and bounds in every semantic tool cost ~200 tokens of the default
 * profile). The runner still checks its bounds.
 */
export const WAIT_SUMMARY =
  'Tools that ask a language server take `wait_ms` (default 20000): past it they answer NOT_READY saying what is loading, while the server goes on loading; ask again later.';

/** What `max_ms` means, said once as `wait_ms` is. */
export const DEADLINE_SUMMARY = `Tools that walk many files (callers, impact, relationships) take \`max_ms\` (default ${DEFAULT_MAX_MS}): at it they answer with what they have, the first line saying what was cut.`;

/** A tool's input schema as listed. */
export function compactInputSchema(schema: Json): Json {
  const out = compactNode(schema, false) as Json;
  const props = out.properties;
  if (isObject(props) && props.wait_ms !== undefined) props.wait_ms = { type: 'integer' };
  if (isObject(props) && props.max_ms !== undefined) props.max_ms = { type: 'integer' };
  return out;
}

/**
 * A tool's output schema as listed: the result's own fields in full, `_meta` as an object (the 1.x SDK
 * client validates structured results against this schema, so it must accept every `_meta` the runner
 * builds: any object does). Its keys are named once, in the server instructions (META_SUMMARY): the
 * same line in each of 12 output schemas cost ~360 tokens of the default profile.
 */
export function compactOutputSchema(schema: Json): Json {
  const out = compactNode(schema, true) as Json;
  const props = out.properties;
  if (isObject(props) && props._meta !== undefined) props._meta = { type: 'object' };
  return out;
}
