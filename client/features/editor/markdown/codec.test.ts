import { describe, expect, it } from 'vitest';
import { MarkdownImportError } from '../../../../common/editor/markdown/decode.ts';
import { isMarkdownImportError, loadMarkdownCodec } from './codec.ts';

describe('isMarkdownImportError', () => {
  const tooLarge = new MarkdownImportError('too_large', 'This file is over 10 MB.');

  it('says no until the codec, the only thrower of one, has loaded', () => {
    expect(isMarkdownImportError(tooLarge)).toBe(false);
  });

  it('knows the codec’s import errors once it has loaded, and nothing else', async () => {
    const codec = await loadMarkdownCodec();
    let thrown: unknown;
    try {
      codec.checkMarkdownFileSize(11 * 1024 * 1024);
    } catch (error) {
      thrown = error;
    }
    expect(isMarkdownImportError(thrown)).toBe(true);
    expect(isMarkdownImportError(tooLarge)).toBe(true);
    expect(isMarkdownImportError(new Error('This file is over 10 MB.'))).toBe(false);
    expect(isMarkdownImportError('too_large')).toBe(false);
  });
});
