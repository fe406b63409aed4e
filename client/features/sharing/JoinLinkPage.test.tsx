// @vitest-environment jsdom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JoinLinkResponse } from '../../../common/api/sharing.ts';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { DocumentList } from '../documents/DocumentList.ts';
import { SharedDocumentListContext } from '../documents/documentListContext.ts';
import { JoinLinkPage } from './JoinLinkPage.tsx';
import type { JoinLink } from './sharingApi.ts';

const TOKEN = 'a'.repeat(43);
const DOC = '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f';
let host: HTMLElement;

afterEach(() => {
  render(null, host);
  host.remove();
  window.history.replaceState(null, '', '/');
});

async function show(join: JoinLink) {
  window.history.pushState(null, '', '/');
  window.history.pushState(null, '', `/s/${TOKEN}`);
  const load = vi.fn(() => Promise.resolve([]));
  host = document.createElement('div');
  document.body.append(host);
  await act(() =>
    render(
      <SharedDocumentListContext.Provider value={new DocumentList(load)}>
        <JoinLinkPage token={TOKEN} join={join} />
      </SharedDocumentListContext.Provider>,
      host,
    ),
  );
  // The join's answer, then the page's.
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return { load };
}

describe('JoinLinkPage', () => {
  it('joins with the token and replaces the link with the document, refreshing Shared with me', async () => {
    const join = vi.fn<JoinLink>(() =>
      Promise.resolve<JoinLinkResponse>({ documentId: DOC, role: 'editor' }),
    );
    const length = window.history.length;
    const { load } = await show(join);
    expect(join).toHaveBeenCalledWith(TOKEN);
    expect(window.location.pathname).toBe(`/d/${DOC}`);
    // Replaced, not pushed: Back does not follow the link again.
    expect(window.history.length).toBe(length + 2);
    expect(load).toHaveBeenCalled();
  });

  it("says a revoked or reset link doesn't work any more, with a way home", async () => {
    await show(() => Promise.reject(new ApiError('not_found', 'No document.', 404)));
    expect(host.querySelector('h1')?.textContent).toBe("This link doesn't work any more");
    expect(host.querySelector('a')?.getAttribute('href')).toBe('/');
    expect(window.location.pathname).toBe(`/s/${TOKEN}`);
  });

  it('treats a mangled address as a link that does not work', async () => {
    await show(() => Promise.reject(new ApiError('invalid_request', 'Not a share link.', 400)));
    expect(host.querySelector('h1')?.textContent).toBe("This link doesn't work any more");
  });

  it('offers to try again when offline, and then joins', async () => {
    const join = vi
      .fn<JoinLink>()
      .mockRejectedValueOnce(new NetworkError('The server could not be reached.'))
      .mockResolvedValueOnce({ documentId: DOC, role: 'viewer' });
    await show(join);
    expect(host.textContent).toContain('Check your connection');
    const retry = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Try again');
    await act(() => retry?.click());
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(join).toHaveBeenCalledTimes(2);
    expect(window.location.pathname).toBe(`/d/${DOC}`);
  });
});
