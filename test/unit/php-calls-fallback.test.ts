import { describe, expect, it } from 'vitest';

import { callSitesIn, maskCommentsAndStrings } from '../../src/service/navigation/calls-fallback.js';

describe('call sites in a body (references fallback for servers without call hierarchy)', () => {
  it('finds calls, skipping keywords, declarations, constructions, variable calls, comments and strings', () => {
    const body = [
      '{',
      '    // format($x) in a comment',
      "    $s = 'strtoupper(';",
      '    if ($this->formatter->format($user->greeting(), 40)) {',
      '        $fn = function helper($a) { return $a; };',
      '        $obj = new Thing($x);',
      '        $cb($y);',
      '        return Formatter::make();',
      '    }',
      '}',
    ].join('\n');
    expect(callSitesIn(body).map((c) => c.name)).toEqual(['format', 'greeting', 'make']);
    const at = callSitesIn(body)[0]!.offset;
    expect(body.slice(at, at + 6)).toBe('format');
  });

  it('masks keep offsets and newlines', () => {
    const t = "a('x') /* c\nd */ b # e\nf";
    const m = maskCommentsAndStrings(t);
    expect(m.length).toBe(t.length);
    expect(m.split('\n').length).toBe(3);
    expect(m.replace(/\s+/g, ' ').trim()).toBe('a( ) b f');
  });
});
