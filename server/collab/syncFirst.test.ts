import { HocuspocusProvider } from '@hocuspocus/provider';
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { type CollabClient, useLiveClients } from './test/collabClient.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

const { live } = useLiveClients();

function paragraph(text: string): Y.XmlElement {
  const element = new Y.XmlElement('paragraph');
  element.insert(0, [new Y.XmlText(text)]);
  return element;
}

/**
 * A device copy of a stored document holding one paragraph the server never got (typed offline,
 * or acknowledged by no server before it was killed), and a client on it that types into that
 * paragraph the moment its socket opens: before the sync has carried the paragraph across.
 */
async function typingAsTheSocketOpens(
  client: TestClient,
  Provider?: typeof HocuspocusProvider,
): Promise<{ document: DocumentRecord; collab: CollabClient }> {
  const res = await client.request('POST', '/api/documents', {
    json: {
      title: 'Device copy',
      content: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'stored' }] }],
      },
    },
  });
  expect(res.status).toBe(201);
  const { document } = (await res.json()) as { document: DocumentRecord };
  const first = live(client, document.id);
  await first.synced;
  const deviceCopy = new Y.Doc();
  Y.applyUpdate(deviceCopy, Y.encodeStateAsUpdate(first.doc));
  first.destroy();
  const fragment = deviceCopy.getXmlFragment(CONTENT_FIELD);
  fragment.insert(fragment.length, [paragraph('offline')]);

  const collab = live(client, document.id, { doc: deviceCopy, Provider });
  collab.provider.on('open', () => {
    const offline = fragment.get(fragment.length - 1) as Y.XmlElement;
    (offline.get(0) as Y.XmlText).insert('offline'.length, ' and typed');
  });
  return { document, collab };
}

describeWithServer('changes typed while the live socket opens', (context) => {
  it('reach the server through the sync, built on a device copy it lacked', async () => {
    const { client } = await signedInUser(context().server, context().db);
    const { document, collab } = await typingAsTheSocketOpens(client);
    // Each rejects if the server refused the socket first.
    await collab.synced;
    await collab.saved();
    const fresh = live(client, document.id);
    await fresh.synced;
    expect(fresh.blocks()).toEqual(['stored', 'offline and typed']);
  });

  it('are refused when sent before it, as HocuspocusProvider alone sends them', async () => {
    // Why the editor runs SyncFirstProvider: the server cannot check an update whose causes it
    // lacks, and refuses it (1008) instead of holding it.
    const { client } = await signedInUser(context().server, context().db);
    const { collab } = await typingAsTheSocketOpens(client, HocuspocusProvider);
    expect(await collab.closed).toBe(1008);
  });
});
