import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { decodeMarkdownFile } from '../../../common/editor/markdown/decode.ts';
import { parseMarkdown } from '../../../common/editor/markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../../common/editor/markdown/serializeMarkdown.ts';
import { exportWithImages } from '../editor/uploads/exportWithImages.ts';
import type { VaultImportResult } from '../../../common/api/vault.ts';
import { mapEmbedSources, mapImageSources } from '../editor/uploads/imageSources.ts';
import { joinChunks, ZipWriter } from '../../../common/vault/zipWriter.ts';
import { importVault, type ImportDeps, type OutgoingNote, type VaultFile } from './importVault.ts';
import { filesOf } from './vaultSources.ts';

const file = (path: string, text: string | Uint8Array): VaultFile => {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { path, size: bytes.length, read: () => Promise.resolve(bytes) };
};

function fakeServer(refuse: (note: OutgoingNote) => string | null = () => null) {
  const received: OutgoingNote[] = [];
  const batches: number[] = [];
  let ids = 0;
  const deps: ImportDeps = {
    parse: (bytes, images) => {
      const doc = parseMarkdown(decodeMarkdownFile(bytes), inkwellSchema());
      return JSON.stringify(
        mapEmbedSources(mapImageSources(doc, images.image), images.embed).toJSON(),
      );
    },
    send: (documents) => {
      batches.push(documents.length);
      return Promise.resolve(
        documents.map((document): VaultImportResult => {
          const reason = refuse(document);
          if (reason) return { id: document.id, outcome: 'refused', message: reason };
          received.push(document);
          return { id: document.id, outcome: 'created' };
        }),
      );
    },
    newId: () => `id-${++ids}`,
    yieldToBrowser: () => Promise.resolve(),
    onProgress: () => undefined,
  };
  return { deps, received, batches };
}

const imageSrcs = (note: OutgoingNote | undefined): string[] => {
  const found: string[] = [];
  const walk = (node: { attrs?: { src?: unknown }; content?: unknown[] }) => {
    if (typeof node.attrs?.src === 'string') found.push(node.attrs.src);
    for (const child of node.content ?? []) walk(child as typeof node);
  };
  if (note) walk(JSON.parse(note.content) as Parameters<typeof walk>[0]);
  return found;
};

describe('importVault with images', () => {
  it('uploads the images first and links each note to them; other files stay kept for later', async () => {
    const server = fakeServer();
    const uploads: string[] = [];
    server.deps.uploadImage = (bytes, name) => {
      uploads.push(name);
      if (name === 'fake.png') {
        return Promise.reject(new Error('This file is not an image Inkwell can show.'));
      }
      return Promise.resolve(`/files/${uploads.length}`);
    };
    const summary = await importVault(
      [
        file(
          'Trip/Day 1.md',
          '![shot](images/shot.png) ![bad](images/fake.png)\n\n![web](https://example.com/a.png)\n',
        ),
        file('Trip/images/shot.png', new Uint8Array([0x89, 0x50])),
        file('Trip/images/fake.png', '<html>'),
        file('Trip/guide.pdf', '%PDF'),
      ],
      server.deps,
    );
    expect(uploads).toEqual(['shot.png', 'fake.png']);
    expect(imageSrcs(server.received[0])).toEqual([
      '/files/1',
      'images/fake.png',
      'https://example.com/a.png',
    ]);
    expect(summary).toMatchObject({ imported: 1, images: 1, keptForLater: ['Trip/guide.pdf'] });
    expect(summary.failed).toEqual([
      { path: 'Trip/images/fake.png', reason: 'This file is not an image Inkwell can show.' },
    ]);
  });
});

/** The embeds of a sent note: each one's target and the address it shows (null for none). */
const embeds = (note: OutgoingNote | undefined): [string, unknown][] => {
  const found: [string, unknown][] = [];
  const walk = (node: { type?: string; attrs?: Record<string, unknown>; content?: unknown[] }) => {
    if (node.type === 'wikilink' && node.attrs?.embed === true) {
      found.push([String(node.attrs.target), node.attrs.src ?? null]);
    }
    for (const child of node.content ?? []) walk(child as typeof node);
  };
  if (note) walk(JSON.parse(note.content) as Parameters<typeof walk>[0]);
  return found;
};

/** A fake upload that answers `/files/<n>` and records each name and size. */
function recordUploads(server: ReturnType<typeof fakeServer>) {
  const uploads: [string, number][] = [];
  server.deps.uploadImage = (bytes, name) => {
    uploads.push([name, bytes.length]);
    return Promise.resolve(`/files/${uploads.length}`);
  };
  return uploads;
}

describe('importVault with embeds', () => {
  it('shows the vault’s image in each ![[…]] embed, by name anywhere or by path', async () => {
    const server = fakeServer();
    recordUploads(server);
    await importVault(
      [
        file('Vault/Attachments/diagram.png', new Uint8Array([1])),
        file('Vault/Old/deep/diagram.png', new Uint8Array([2])),
        file('Vault/sub/diagram.png', new Uint8Array([3])),
        file('Vault/Notes/Plan.md', '![[diagram.png]] ![[sub/diagram.png|300]] ![[Diagram.PNG]]\n'),
      ],
      server.deps,
    );
    // A bare name finds the shortest path holding it, here Vault/sub/.
    expect(embeds(server.received[0])).toEqual([
      ['diagram.png', '/files/3'],
      ['sub/diagram.png', '/files/3'],
      ['Diagram.PNG', '/files/3'],
    ]);
  });

  it('leaves embeds of PDFs, of notes, of missing images and of paths out of the vault alone', async () => {
    const server = fakeServer();
    recordUploads(server);
    const summary = await importVault(
      [
        file('Vault/passwd.png', new Uint8Array([1])),
        file('Vault/paper.pdf', '%PDF'),
        file(
          'Vault/Note.md',
          '![[paper.pdf]] ![[Other note]] ![[missing.png]] ![[../../etc/passwd]] ![[../../passwd.png]] ![[/passwd.png]]\n',
        ),
      ],
      server.deps,
    );
    expect(embeds(server.received[0])).toEqual([
      ['paper.pdf', null],
      ['Other note', null],
      ['missing.png', null],
      ['../../etc/passwd', null],
      ['../../passwd.png', null],
      ['/passwd.png', null],
    ]);
    expect(summary).toMatchObject({ imported: 1, images: 1, keptForLater: ['Vault/paper.pdf'] });
  });

  it('reads a zipped image past the 10 MB note limit, up to the server’s upload limit', async () => {
    const zip = new ZipWriter();
    zip.add('Vault/big.png', new Uint8Array(12 * 1024 * 1024));
    zip.add('Vault/Note.md', '![[big.png]]\n');
    const files = await filesOf({
      kind: 'zip',
      file: new File([joinChunks(zip.finish())], 'vault.zip'),
    });
    const server = fakeServer();
    const uploads = recordUploads(server);
    server.deps.maxImageBytes = 20 * 1024 * 1024;
    const summary = await importVault(files, server.deps);
    expect(summary.failed).toEqual([]);
    expect(uploads).toEqual([['big.png', 12 * 1024 * 1024]]);
    expect(embeds(server.received[0])).toEqual([['big.png', '/files/1']]);
  });

  it('refuses an image over the server’s upload limit by its size, without reading it', async () => {
    const server = fakeServer();
    const uploads = recordUploads(server);
    server.deps.maxImageBytes = 20 * 1024 * 1024;
    const huge: VaultFile = {
      path: 'Vault/huge.png',
      size: 25 * 1024 * 1024,
      read: () => Promise.reject(new Error('read')),
    };
    const summary = await importVault(
      [huge, file('Vault/Note.md', '![[huge.png]]\n')],
      server.deps,
    );
    expect(uploads).toEqual([]);
    expect(summary.failed).toEqual([
      { path: 'Vault/huge.png', reason: 'It is 25.0 MB; images up to 20.0 MB can be uploaded.' },
    ]);
    expect(embeds(server.received[0])).toEqual([['huge.png', null]]);
  });

  it('imports the zip "Export with images" made back into the document with its images', async () => {
    const A = '/files/00000000-0000-4000-8000-00000000000a';
    const markdown = `# Trip\n\n![shot](${A}) and ![[diagram.png]]\n`;
    const zipped = await exportWithImages(parseMarkdown(markdown), 'Trip', {
      fetchImage: () =>
        Promise.resolve({ bytes: new Uint8Array([1, 2, 3]), type: 'image/png', name: 'shot.png' }),
      serialize: serializeMarkdown,
      origin: 'https://inkwell.test',
    });
    const files = await filesOf({
      kind: 'zip',
      file: new File([joinChunks(zipped.chunks)], 'Trip.zip'),
    });
    const server = fakeServer();
    const uploads = recordUploads(server);
    const summary = await importVault(files, server.deps);
    expect(summary).toMatchObject({ imported: 1, images: 1, failed: [] });
    expect(uploads).toEqual([['shot.png', 3]]);
    const note = server.received[0]!;
    expect(note.title).toBe('Trip');
    const doc = inkwellSchema().nodeFromJSON(JSON.parse(note.content));
    expect(serializeMarkdown(doc)).toBe(markdown.replace(A, '/files/1'));
  });

  it('reports the images’ upload as its own stage before the notes', async () => {
    const server = fakeServer();
    recordUploads(server);
    const stages: string[] = [];
    server.deps.onProgress = (done, total, stage) => stages.push(`${stage} ${done}/${total}`);
    await importVault(
      [
        file('V/a.png', new Uint8Array([1])),
        file('V/b.png', new Uint8Array([2])),
        file('V/N.md', 'x\n'),
      ],
      server.deps,
    );
    expect(stages).toEqual(['images 0/2', 'images 1/2', 'images 2/2', 'notes 0/1', 'notes 1/1']);
  });
});

describe('importVault', () => {
  it('imports each Markdown file as a document titled after it, in its folder', async () => {
    const server = fakeServer();
    const summary = await importVault(
      [
        file('Vault/Inbox.md', '# Inbox\n'),
        file('Vault/Projects/Plan for 2026.md', 'Some *plan*\n'),
        file('Vault/Projects/Old/Done.markdown', 'done\n'),
      ],
      server.deps,
    );
    expect(server.received.map((d) => [d.folder, d.title])).toEqual([
      ['Vault', 'Inbox'],
      ['Vault/Projects', 'Plan for 2026'],
      ['Vault/Projects/Old', 'Done'],
    ]);
    expect(JSON.parse(server.received[0]!.content)).toMatchObject({ type: 'doc' });
    expect(summary).toMatchObject({ notes: 3, imported: 3, folders: 3, failed: [], stopped: null });
  });

  it('skips .obsidian and other hidden files, and lists attachments as kept for later', async () => {
    const server = fakeServer();
    const summary = await importVault(
      [
        file('.obsidian/app.json', '{}'),
        file('Vault/.trash/Old.md', 'old'),
        file('Vault/img/cat.png', new Uint8Array([0x89, 0x50])),
        file('Vault/Note.md', '![[cat.png]]\n'),
      ],
      server.deps,
    );
    expect(summary.hidden).toBe(2);
    expect(summary.keptForLater).toEqual(['Vault/img/cat.png']);
    expect(summary.imported).toBe(1);
  });

  it('lists each refused file with its reason and imports the rest', async () => {
    const server = fakeServer((note) => (note.title === 'Server says no' ? 'Too large.' : null));
    const deep = `${'> '.repeat(150)}deep\n`;
    const summary = await importVault(
      [
        file('../../escape.md', 'x'),
        file('/abs.md', 'x'),
        file('binary.md', new Uint8Array([0x61, 0x00, 0x62])),
        file('latin1.md', new Uint8Array([0x63, 0x61, 0x66, 0xe9])),
        file('deep.md', deep),
        file('Server says no.md', 'fine'),
        file('ok.md', 'fine'),
      ],
      server.deps,
    );
    expect(server.received.map((d) => d.title)).toEqual(['ok']);
    const reasons = Object.fromEntries(summary.failed.map((f) => [f.path, f.reason]));
    expect(reasons['../../escape.md']).toMatch(/climbs out/);
    expect(reasons['/abs.md']).toMatch(/absolute/);
    expect(reasons['binary.md']).toMatch(/NUL character/);
    expect(reasons['latin1.md']).toMatch(/not UTF-8/);
    expect(reasons['deep.md']).toMatch(/deep/i);
    expect(reasons['Server says no.md']).toBe('Too large.');
    expect(summary.imported).toBe(1);
  });

  it('refuses a vault of more than 10,000 files, and one whose notes exceed the total, before sending', async () => {
    const server = fakeServer();
    const many = Array.from({ length: 10_001 }, (_, i) => file(`n${i}.md`, 'x'));
    await expect(importVault(many, server.deps)).rejects.toThrow(/at most 10,000/);
    const huge = Array.from({ length: 30 }, (_, i) => ({
      path: `big${i}.md`,
      size: 10 * 1024 * 1024,
      read: () => Promise.reject(new Error('never read')),
    }));
    await expect(importVault(huge, server.deps)).rejects.toThrow(/takes up to 256\.0 MB/);
    expect(server.batches).toEqual([]);
  });

  it('imports 10,000 small notes in batches the server accepts', async () => {
    const server = fakeServer();
    const files = Array.from({ length: 10_000 }, (_, i) =>
      file(`f${i % 10}/n${i}.md`, `note ${i}\n`),
    );
    const summary = await importVault(files, server.deps);
    expect(summary.imported).toBe(10_000);
    expect(summary.folders).toBe(10);
    expect(Math.max(...server.batches)).toBeLessThanOrEqual(200);
  });

  it('refuses a note larger than the single-file limit without reading it', async () => {
    const server = fakeServer();
    const summary = await importVault(
      [{ path: 'huge.md', size: 11 * 1024 * 1024, read: () => Promise.reject(new Error('read')) }],
      server.deps,
    );
    expect(summary.failed[0]?.reason).toMatch(/notes up to 10\.0 MB/);
  });

  it('stops at a batch the server cannot take, saying why, with what came before kept', async () => {
    const server = fakeServer();
    let calls = 0;
    const send = server.deps.send;
    server.deps.send = (documents) =>
      ++calls === 1 ? send(documents) : Promise.reject(new Error('You are offline.'));
    const files = Array.from({ length: 250 }, (_, i) => file(`n${i}.md`, 'x'));
    const summary = await importVault(files, server.deps);
    expect(summary.imported).toBe(100);
    expect(summary.stopped).toBe('You are offline.');
  });
});
