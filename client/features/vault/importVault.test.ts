import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { decodeMarkdownFile } from '../../../common/editor/markdown/decode.ts';
import { parseMarkdown } from '../../../common/editor/markdown/parseMarkdown.ts';
import type { VaultImportResult } from '../../../common/api/vault.ts';
import { mapImageSources } from '../editor/uploads/imageSources.ts';
import { importVault, type ImportDeps, type OutgoingNote, type VaultFile } from './importVault.ts';

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
      return JSON.stringify(mapImageSources(doc, images).toJSON());
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
