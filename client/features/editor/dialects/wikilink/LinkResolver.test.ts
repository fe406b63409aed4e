import { describe, expect, it, vi } from 'vitest';
import { LinkResolver } from './LinkResolver.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('LinkResolver', () => {
  it('asks once for all the targets looked up together, and remembers the answers', async () => {
    const ask = vi.fn(async (targets: string[]) =>
      targets.map((target) => (target === 'Known' ? { id: 'k', title: 'Known' } : null)),
    );
    const resolver = new LinkResolver(ask);
    const heard = vi.fn();
    resolver.subscribe(heard);
    expect(resolver.lookup('Known')).toBeUndefined();
    expect(resolver.lookup('Missing')).toBeUndefined();
    expect(resolver.lookup('Known')).toBeUndefined();
    await tick();
    await tick();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask).toHaveBeenCalledWith(['Known', 'Missing']);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(resolver.lookup('Known')).toEqual({ id: 'k', title: 'Known' });
    expect(resolver.lookup('Missing')).toBeNull();
    await tick();
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('leaves targets unknown when the server cannot be reached, and asks again later', async () => {
    const ask = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue([null]);
    const resolver = new LinkResolver(ask);
    resolver.lookup('Somewhere');
    await tick();
    await tick();
    expect(resolver.lookup('Somewhere')).toBeUndefined();
    await tick();
    await tick();
    expect(resolver.lookup('Somewhere')).toBeNull();
    expect(ask).toHaveBeenCalledTimes(2);
  });
});
