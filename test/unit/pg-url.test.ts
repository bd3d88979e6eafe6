/**
 * What lspgate says of a PostgreSQL address (catalog/published/url.ts) never holds its password, in
 * any of the forms libpq and pg accept, and the repository name made from a remote never holds a
 * credential (catalog/published/repository.ts).
 */
import { describe, expect, it } from 'vitest';

import { normalizeRemote } from '../../src/catalog/published/repository.js';
import { passwordOf, redactText, redactUrl } from '../../src/catalog/published/url.js';

describe('redacting PostgreSQL addresses', () => {
  it.each([
    ['postgres://alice:s3cr3t-pw@db.example:5432/code', 'postgres://alice:***@db.example:5432/code'],
    ['postgresql://alice:p%40ss%2Fword@db/code', 'postgresql://alice:***@db/code'],
    ['postgresql://db/code?user=alice&password=s3cr3t-pw&sslmode=require', 'postgresql://db/code?user=alice&password=***&sslmode=require'],
    ['host=db user=alice password=s3cr3t-pw dbname=code', 'host=db user=alice password=*** dbname=code'],
    ["host=db password='s3 cr3t' dbname=code", 'host=db password=*** dbname=code'],
    ['postgresql://alice@db/code', 'postgresql://alice@db/code'],
  ])('%s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('blanks the password wherever a driver message repeats it', () => {
    const url = 'postgresql://alice:p%40ss-word@db/code';
    expect(passwordOf(url)).toBe('p@ss-word');
    expect(redactText('auth failed for alice with p@ss-word at postgresql://alice:p%40ss-word@db/code', url)).toBe(
      'auth failed for alice with *** at postgresql://alice:***@db/code',
    );
  });
});

describe('repository names from remotes', () => {
  it.each([
    ['https://github.com/org/repo.git', 'github.com/org/repo'],
    ['https://x-access-token:ghp_SECRET@github.com/org/repo.git', 'github.com/org/repo'],
    ['git@github.com:org/repo.git', 'github.com/org/repo'],
    ['ssh://git@gitlab.example:2222/group/sub/repo.git', 'gitlab.example:2222/group/sub/repo'],
  ])('%s', (remote, name) => {
    expect(normalizeRemote(remote)).toBe(name);
  });
});
