// @vitest-environment jsdom
import { Server } from '@hocuspocus/server';
import { Editor } from '@tiptap/core';
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { forEachBlock } from '../../editor/chunks/chunks.ts';
import { editorExtensions } from '../../editor/editorExtensions.ts';
import { collabExtensions, collabUrl, connectDocument, type CollabConnection } from './connect.ts';
import { openSharedDocument } from './openWhenMounted.ts';
import { paragraphsJson } from './test/testEditors.ts';

describe('collabUrl', () => {
  it('uses wss on https pages and ws otherwise, on the page host', () => {
    expect(collabUrl({ protocol: 'https:', host: 'ink.example:8443' })).toBe(
      'wss://ink.example:8443/api/collab',
    );
    expect(collabUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe(
      'ws://localhost:5173/api/collab',
    );
  });
});

describe('two editors through a Hocuspocus server on loopback', () => {
  let server: Server;
  beforeAll(async () => {
    server = new Server({
      port: 0,
      address: '127.0.0.1',
      quiet: true,
      // The server side proper lands separately; this one seeds the document as it will.
      onLoadDocument: async ({ document }) => {
        const fragment = document.getXmlFragment('default');
        if (fragment.length === 0) {
          prosemirrorJSONToYXmlFragment(inkwellSchema(), paragraphsJson(100), fragment);
        }
        return document;
      },
    });
    await server.listen();
  });
  afterAll(async () => {
    await server.destroy();
  });

  const editorOn = (connection: CollabConnection, name: string) => {
    const noop = () => undefined;
    const element = document.createElement('div');
    document.body.append(element);
    const editor = new Editor({
      element,
      extensions: [
        ...editorExtensions({
          markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
          undoRedo: false,
        }),
        ...collabExtensions(connection, { name, color: '#3366aa' }),
      ],
    });
    // As the page does once EditorContent has mounted the view (Editor.tsx).
    openSharedDocument(editor);
    return editor;
  };

  it("syncs one writer's typing into the other's editor", async () => {
    const url = `ws://127.0.0.1:${server.address.port}/api/collab`;
    const id = '5b0c7c1e-7a8e-4c55-9d5c-0f6f0b0b7a01';
    const connections = [0, 1].map(() =>
      connectDocument(id, { url, WebSocketPolyfill: WebSocket }),
    );
    await Promise.all(connections.map((c) => c.synced));
    const [a, b] = connections.map((c, i) => editorOn(c, `Writer ${i}`));
    let start = -1;
    forEachBlock(a!.state.doc, (_block, pos, i) => {
      if (i === 50) start = pos + 1;
    });
    a!.commands.insertContentAt(start, 'Shared ');
    await expect
      .poll(() => b!.state.doc.textBetween(0, b!.state.doc.content.size, '\n'), { timeout: 5000 })
      .toContain('Shared Paragraph 50');
    for (const editor of [a!, b!]) editor.destroy();
    for (const connection of connections) connection.destroy();
  });
});
