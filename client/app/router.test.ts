import { describe, expect, it } from 'vitest';
import { documentPath, isPlainClick, matchRoute, type LinkClick } from './router.ts';

describe('matchRoute', () => {
  it('matches the fixed screens, with or without a trailing slash', () => {
    expect(matchRoute('/')).toEqual({ name: 'home' });
    expect(matchRoute('/trash')).toEqual({ name: 'trash' });
    expect(matchRoute('/trash/')).toEqual({ name: 'trash' });
    expect(matchRoute('/settings')).toEqual({ name: 'settings' });
  });

  it('reads the id of a document route', () => {
    const id = '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f';
    expect(matchRoute(`/d/${id}`)).toEqual({ name: 'document', id });
    expect(matchRoute(documentPath('a b'))).toEqual({ name: 'document', id: 'a b' });
  });

  it('reads the token of a share link', () => {
    const token = 'aB3_-'.repeat(8) + 'xyz';
    expect(matchRoute(`/s/${token}`)).toEqual({ name: 'joinLink', token });
    expect(matchRoute('/s/')).toEqual({ name: 'notFound' });
    expect(matchRoute('/s/a%20b')).toEqual({ name: 'notFound' });
  });

  it('sends anything else to not found', () => {
    expect(matchRoute('/d')).toEqual({ name: 'notFound' });
    expect(matchRoute('/d/')).toEqual({ name: 'notFound' });
    expect(matchRoute('/d/a/b')).toEqual({ name: 'notFound' });
    expect(matchRoute('/d/%E0')).toEqual({ name: 'notFound' });
    expect(matchRoute('/trashcan')).toEqual({ name: 'notFound' });
    expect(matchRoute('/settings/x')).toEqual({ name: 'notFound' });
  });
});

describe('isPlainClick', () => {
  const plain: LinkClick = {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
  };

  it('takes a plain primary click', () => {
    expect(isPlainClick(plain)).toBe(true);
    expect(isPlainClick(plain, '_self')).toBe(true);
  });

  it('leaves new-tab gestures and other targets to the browser', () => {
    expect(isPlainClick({ ...plain, ctrlKey: true })).toBe(false);
    expect(isPlainClick({ ...plain, metaKey: true })).toBe(false);
    expect(isPlainClick({ ...plain, shiftKey: true })).toBe(false);
    expect(isPlainClick({ ...plain, button: 1 })).toBe(false);
    expect(isPlainClick(plain, '_blank')).toBe(false);
    expect(isPlainClick({ ...plain, defaultPrevented: true })).toBe(false);
  });
});
