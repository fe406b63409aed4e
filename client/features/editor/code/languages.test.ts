import { describe, expect, it } from 'vitest';
import { GRAMMAR_LOADERS } from './grammarModules.ts';
import { CODE_LANGUAGES, resolveCodeLanguage, withLanguage } from './languages.ts';

describe('resolveCodeLanguage', () => {
  it('finds a grammar by its name', () => {
    expect(resolveCodeLanguage('python')?.name).toBe('python');
  });

  it('resolves common aliases', () => {
    expect(resolveCodeLanguage('ts')?.name).toBe('typescript');
    expect(resolveCodeLanguage('tsx')?.name).toBe('typescript');
    expect(resolveCodeLanguage('js')?.name).toBe('javascript');
    expect(resolveCodeLanguage('sh')?.name).toBe('bash');
    expect(resolveCodeLanguage('shell')?.name).toBe('bash');
    expect(resolveCodeLanguage('html')?.name).toBe('xml');
    expect(resolveCodeLanguage('yml')?.name).toBe('yaml');
    expect(resolveCodeLanguage('c++')?.name).toBe('cpp');
  });

  it('reads only the first word of the info string, case-insensitively', () => {
    expect(resolveCodeLanguage('TS title=a.ts')?.name).toBe('typescript');
    expect(resolveCodeLanguage('  rust  ')?.name).toBe('rust');
  });

  it('has no grammar for plain text, unknown words or nothing', () => {
    expect(resolveCodeLanguage('mermaid')).toBeUndefined();
    expect(resolveCodeLanguage('text')).toBeUndefined();
    expect(resolveCodeLanguage('')).toBeUndefined();
    expect(resolveCodeLanguage(null)).toBeUndefined();
  });

  it('offers about thirty grammars, each with a unique name', () => {
    const names = CODE_LANGUAGES.map((language) => language.name);
    expect(names.length).toBeGreaterThanOrEqual(30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has a real highlight.js grammar for every language offered, and none more', async () => {
    const names = CODE_LANGUAGES.map((language) => language.name);
    expect(Object.keys(GRAMMAR_LOADERS).sort()).toEqual([...names].sort());
    const grammar = await GRAMMAR_LOADERS.go?.();
    expect(typeof grammar?.default).toBe('function');
  });
});

describe('withLanguage', () => {
  it('replaces the first word and keeps the rest of the info string', () => {
    expect(withLanguage('ts title=a.ts', 'python')).toBe('python title=a.ts');
    expect(withLanguage(null, 'go')).toBe('go');
  });

  it('removes the language, keeping attributes behind a text word', () => {
    expect(withLanguage('ts', '')).toBeNull();
    expect(withLanguage('ts title=a.ts', '')).toBe('text title=a.ts');
  });
});
