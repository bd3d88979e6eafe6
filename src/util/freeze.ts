/**
 * Deep freezing of data that is shared between callers (cached answers, cached file models): a
 * caller that tried to change it would throw in strict mode instead of corrupting the next answer.
 */

/**
 * Freezes `v` and everything reachable from it. An object already frozen is taken to be frozen
 * all the way down (everything frozen here is), so shared subtrees are walked once.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  for (const x of Object.values(v)) deepFreeze(x);
  return Object.freeze(v);
}
