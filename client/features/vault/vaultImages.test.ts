import { describe, expect, it } from 'vitest';
import { embedResolver, imageResolver, isImagePath, normalVaultPath } from './vaultImages.ts';

const uploaded = new Map([
  ['vault/trip/images/shot.png', '/files/1'],
  ['vault/images/my photo.jpg', '/files/2'],
]);

describe('image links of an imported note', () => {
  it('resolve from the note’s folder, as Export with images writes them', () => {
    const resolve = imageResolver('Vault/Trip/Day 1.md', uploaded);
    expect(resolve('images/shot.png')).toBe('/files/1');
    expect(resolve('./images/Shot.PNG')).toBe('/files/1');
    expect(resolve('../images/my%20photo.jpg')).toBe('/files/2');
  });

  it('resolve from the top of the vault when not found beside the note', () => {
    expect(imageResolver('Vault/Trip/Day 1.md', uploaded)('Vault/images/my photo.jpg')).toBe(
      '/files/2',
    );
  });

  it('leave web, data, absolute and unknown addresses alone', () => {
    const resolve = imageResolver('Vault/Trip/Day 1.md', uploaded);
    expect(resolve('https://example.com/images/shot.png')).toBeNull();
    expect(resolve('data:image/png;base64,AAAA')).toBeNull();
    expect(resolve('/images/shot.png')).toBeNull();
    expect(resolve('images/missing.png')).toBeNull();
    expect(resolve('../../../images/shot.png')).toBeNull();
  });
});

describe('image embeds of an imported note', () => {
  const files = new Map([
    ['vault/attachments/diagram.png', '/files/a'],
    ['vault/diagram.png', '/files/b'],
    ['vault/notes/sub/chart.png', '/files/c'],
    ['vault/sub/chart.png', '/files/d'],
  ]);

  it('find a bare name anywhere, the shortest path winning, without case', () => {
    const resolve = embedResolver('Vault/Notes/Plan.md', files);
    expect(resolve('diagram.png')).toBe('/files/b');
    expect(resolve(' Diagram.PNG ')).toBe('/files/b');
  });

  it('read a path from the top, then from the note’s folder, then as the end of a longer path', () => {
    expect(embedResolver('Vault/Notes/Plan.md', files)('vault/sub/chart.png')).toBe('/files/d');
    expect(embedResolver('Vault/Notes/Plan.md', files)('sub/chart.png')).toBe('/files/c');
    expect(embedResolver('Vault/Other.md', files)('sub/chart.png')).toBe('/files/d');
    expect(embedResolver('Other.md', files)('attachments/diagram.png')).toBe('/files/a');
  });

  it('find nothing for other files, missing images, or paths that climb out or start at /', () => {
    const resolve = embedResolver('Vault/Notes/Plan.md', files);
    expect(resolve('paper.pdf')).toBeNull();
    expect(resolve('Some note')).toBeNull();
    expect(resolve('missing.png')).toBeNull();
    expect(resolve('../../diagram.png')).toBeNull();
    expect(resolve('/vault/diagram.png')).toBeNull();
  });
});

describe('vault paths', () => {
  it('apply .. and refuse to climb out', () => {
    expect(normalVaultPath('a/./b/../c.png')).toBe('a/c.png');
    expect(normalVaultPath('a\\b.png')).toBe('a/b.png');
    expect(normalVaultPath('../x.png')).toBeNull();
  });

  it('take the image types file storage accepts', () => {
    expect(isImagePath('a/b.JPEG')).toBe(true);
    expect(isImagePath('a/b.webp')).toBe(true);
    expect(isImagePath('a/b.pdf')).toBe(false);
    expect(isImagePath('a/b.svg')).toBe(false);
  });
});
