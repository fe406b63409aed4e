import { describe, expect, it, vi } from 'vitest';
import type { DocumentMeta } from '../../../common/api/documents.ts';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { base64Of } from '../../lib/base64.ts';
import type { DocumentWithId } from './documentsApi.ts';
import { PendingDocuments, type PendingDocument } from './pendingDocuments.ts';

/** Yjs states as the create sends them (base64). */
const AAEC = base64Of(Uint8Array.of(0, 1, 2));
const AAED = base64Of(Uint8Array.of(0, 1, 3));

const ID = '0b6f3c8e-2f1a-4c4e-9a57-3d2f1e0c9b8a';
const record: DocumentMeta = {
  id: ID,
  title: 'notes',
  version: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  deletedAt: null,
};
const document: PendingDocument = {
  record,
  doc: inkwellSchema().nodeFromJSON({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Imported' }] }],
  }),
};
const serverCopy: DocumentMeta = { ...record, updatedAt: '2025-01-01T00:00:01.000Z' };

function setup() {
  const requests: { request: DocumentWithId; keepalive: boolean }[] = [];
  /** How the next sends end; by default they succeed. */
  const outcomes: (() => Promise<DocumentMeta>)[] = [];
  let quiet: () => void = () => undefined;
  const whenQuiet = vi.fn(() => new Promise<void>((resolve) => (quiet = resolve)));
  const serialize = vi.fn(() => '{"type":"doc"}');
  const send = vi.fn((request: DocumentWithId, keepalive: boolean) => {
    requests.push({ request, keepalive });
    if (keepalive && (request.content ?? request.yjsState ?? '').length > 100) return null;
    return outcomes.shift()?.() ?? Promise.resolve(serverCopy);
  });
  const pending = new PendingDocuments({ send, serialize, whenQuiet });
  const onCreated = vi.fn();
  const onRefused = vi.fn();
  pending.add(document, { onCreated, onRefused });
  return { pending, requests, outcomes, serialize, onCreated, onRefused, quiet: () => quiet() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PendingDocuments', () => {
  it('serialises only once the page is quiet, and keeps one create under way', async () => {
    const { pending, requests, serialize, quiet } = setup();
    const first = pending.send(ID);
    const second = pending.send(ID);
    expect(second).toBe(first);
    await settle();
    expect(serialize).not.toHaveBeenCalled();
    expect(requests).toHaveLength(0);
    quiet();
    await expect(first).resolves.toEqual({
      id: ID,
      version: 1,
      updatedAt: '2025-01-01T00:00:01.000Z',
    });
    expect(requests).toEqual([
      { request: { id: ID, title: 'notes', content: '{"type":"doc"}' }, keepalive: false },
    ]);
  });

  it('sends the same id and content again after a lost answer, serialising once', async () => {
    const { pending, requests, outcomes, serialize, quiet } = setup();
    outcomes.push(() => Promise.reject(new NetworkError('down')));
    const first = pending.send(ID);
    quiet();
    await expect(first).rejects.toBeInstanceOf(NetworkError);
    // Still pending: the editor may open it again, and its create retries.
    expect(pending.get(ID)).toBe(document);
    await expect(pending.send(ID)).resolves.toMatchObject({ version: 1 });
    expect(requests).toHaveLength(2);
    expect(requests[1]?.request).toEqual(requests[0]?.request);
    expect(serialize).toHaveBeenCalledTimes(1);
  });

  it('forgets the document once the server has it, and answers later callers', async () => {
    const { pending, requests, onCreated, quiet } = setup();
    const sending = pending.send(ID);
    quiet();
    await sending;
    expect(onCreated).toHaveBeenCalledWith(serverCopy);
    expect(pending.get(ID)).toBeUndefined();
    await expect(pending.send(ID)).resolves.toMatchObject({ id: ID, version: 1 });
    expect(requests).toHaveLength(1);
  });

  it('takes a refusal as final: told once, and nothing is sent again', async () => {
    const { pending, requests, outcomes, onCreated, onRefused, quiet } = setup();
    const tooLarge = new ApiError('payload_too_large', 'The document is larger than 5 MB.', 413);
    outcomes.push(() => Promise.reject(tooLarge));
    const sending = pending.send(ID);
    quiet();
    await expect(sending).rejects.toBe(tooLarge);
    expect(onRefused).toHaveBeenCalledWith(tooLarge);
    expect(pending.get(ID)).toBeUndefined();
    await expect(pending.send(ID)).rejects.toBe(tooLarge);
    expect(requests).toHaveLength(1);
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('sends at once with keepalive when the page goes, or nothing when too large', async () => {
    const small = setup();
    await expect(small.pending.send(ID, true)).resolves.toMatchObject({ version: 1 });
    expect(small.requests[0]?.keepalive).toBe(true);

    const large = setup();
    large.serialize.mockReturnValue(`{"type":"doc","x":"${'x'.repeat(200)}"}`);
    expect(large.pending.send(ID, true)).toBeNull();
    expect(large.pending.get(ID)).toBe(document);
  });

  it('sends the live state of a document this tab edits, read once the page is quiet, never serialising', async () => {
    const { pending, requests, serialize, quiet } = setup();
    const state = vi.fn(() => AAEC);
    pending.useState(ID, state);
    const sending = pending.send(ID);
    // Encoding a large state holds up the page as serialising would: not before it is painted.
    await Promise.resolve();
    expect(state).not.toHaveBeenCalled();
    expect(requests).toHaveLength(0);
    quiet();
    await expect(sending).resolves.toMatchObject({ version: 1 });
    expect(requests).toEqual([
      { request: { id: ID, title: 'notes', yjsState: 'AAEC' }, keepalive: false },
    ]);
    expect(serialize).not.toHaveBeenCalled();
    expect(state).toHaveBeenCalledTimes(1);
  });

  it("reads the live state off the page's thread when it can, and sends that", async () => {
    const { pending, requests, quiet } = setup();
    const state = vi.fn(() => AAEC);
    const offThread = vi.fn(() => Promise.resolve(AAED));
    pending.useState(ID, state, undefined, offThread);
    const sending = pending.send(ID);
    await Promise.resolve();
    expect(offThread).not.toHaveBeenCalled();
    quiet();
    await expect(sending).resolves.toMatchObject({ version: 1 });
    expect(requests.map(({ request }) => request.yjsState)).toEqual(['AAED']);
    expect(offThread).toHaveBeenCalledTimes(1);
    expect(state).not.toHaveBeenCalled();
  });

  it('sends the live state with keepalive too, never the content the device copy does not hold', () => {
    const { pending, requests, serialize } = setup();
    pending.useState(ID, () => AAEC);
    expect(pending.send(ID, true)).not.toBeNull();
    expect(requests).toEqual([
      { request: { id: ID, title: 'notes', yjsState: 'AAEC' }, keepalive: true },
    ]);
    expect(serialize).not.toHaveBeenCalled();
  });

  it('reads the live state once its build in slices is done, and at once when the page is going', async () => {
    const { pending, requests, quiet } = setup();
    let built: () => void = () => undefined;
    const ready = vi.fn(() => new Promise<void>((resolve) => (built = resolve)));
    const state = vi.fn(() => AAEC);
    pending.useState(ID, state, ready);
    const sending = pending.send(ID);
    quiet();
    await settle();
    // Quiet, but still building: reading the state now would finish the build in one task.
    expect(ready).toHaveBeenCalledTimes(1);
    expect(state).not.toHaveBeenCalled();
    built();
    await expect(sending).resolves.toMatchObject({ version: 1 });
    expect(requests.map(({ request }) => request.yjsState)).toEqual(['AAEC']);

    const going = setup();
    going.pending.useState(
      ID,
      () => AAEC,
      () => new Promise<void>(() => undefined),
    );
    expect(going.pending.send(ID, true)).not.toBeNull();
  });
});
