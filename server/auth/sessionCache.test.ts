import { describe, expect, it } from 'vitest';
import { SessionCache } from './sessionCache.ts';
import type { ActiveSession } from './sessions.ts';

const sessionOf = (idHash: string): ActiveSession => ({
  idHash,
  user: { id: `user-${idHash}`, email: `${idHash}@example.com`, name: idHash },
  idToken: null,
  renewed: true,
});

describe('SessionCache', () => {
  it('trusts a session for two seconds, not renewed by the lookup that finds it', () => {
    let now = 1_000_000;
    const cache = new SessionCache(() => now);
    cache.set(sessionOf('a'));
    now += 1_999;
    expect(cache.get('a')).toEqual({ ...sessionOf('a'), renewed: false });
    now += 2;
    expect(cache.get('a')).toBeNull();
  });

  it('forgets a session that ended', () => {
    const cache = new SessionCache();
    cache.set(sessionOf('a'));
    cache.forget('a');
    expect(cache.get('a')).toBeNull();
  });

  it('when full, forgets the session least recently looked up, not the one set first', () => {
    const cache = new SessionCache(() => 1_000_000);
    for (let i = 0; i < 10_000; i += 1) cache.set(sessionOf(`s${i}`));
    // The first one set is in use: the next new session pushes out the second.
    expect(cache.get('s0')).not.toBeNull();
    cache.set(sessionOf('new'));
    expect(cache.get('s0')).not.toBeNull();
    expect(cache.get('s1')).toBeNull();
    expect(cache.get('new')).not.toBeNull();
  });
});
