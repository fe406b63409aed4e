// @vitest-environment jsdom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SharingState } from '../../../common/api/sharing.ts';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { ShareDialog } from './ShareDialog.tsx';
import type { SharingApi } from './sharingApi.ts';

const DOC = '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f';
const owner = { id: 'u-owner', name: 'Ada Owner', email: 'ada@example.com' };
const bea = { id: 'u-bea', name: 'Bea Reader', email: 'bea@example.com' };
const empty: SharingState = { owner, people: [], link: null, published: null };
const LINK = 'http://localhost/s/' + 'a'.repeat(43);
const PAGE = 'http://localhost/p/' + 'b'.repeat(43);

/** A fake sharing API: every method a mock that rejects unless a test gives it an answer. */
function fakeApi(state: SharingState = empty) {
  const change = () =>
    vi.fn<() => Promise<SharingState>>(() => Promise.reject(new Error('not expected')));
  return {
    state: vi.fn<SharingApi['state']>(() => Promise.resolve(state)),
    findPerson: vi.fn<SharingApi['findPerson']>(() => Promise.reject(new Error('not expected'))),
    sharePerson: change(),
    changeRole: change(),
    removePerson: change(),
    setLink: change(),
    resetLink: change(),
    deleteLink: change(),
    publish: change(),
    unpublish: change(),
  } satisfies SharingApi;
}

let host: HTMLElement;

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

afterEach(() => {
  render(null, host);
  host.remove();
});

async function open(api: SharingApi, now?: () => number) {
  host = document.createElement('div');
  document.body.append(host);
  await act(() =>
    render(<ShareDialog documentId={DOC} onClose={() => {}} api={api} now={now} />, host),
  );
}

/** Waits, letting effects, timers and promises run, until `check` passes. */
async function until(check: () => void) {
  for (let i = 0; ; i += 1) {
    try {
      check();
      return;
    } catch (error) {
      if (i > 200) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }
}

const text = () => host.textContent ?? '';
const button = (name: string) => {
  const found = [...host.querySelectorAll('button, a')].find(
    (element) => (element.getAttribute('aria-label') ?? element.textContent) === name,
  );
  if (!found) throw new Error(`no button ${name}`);
  return found as HTMLButtonElement;
};
const byLabel = <T extends HTMLElement>(label: string): T => {
  const withAria = host.querySelector(`[aria-label="${label}"]`);
  if (withAria) return withAria as T;
  const labelElement = [...host.querySelectorAll('label')].find((l) => l.textContent === label);
  const control = labelElement?.htmlFor ? document.getElementById(labelElement.htmlFor) : null;
  if (!control) throw new Error(`no control ${label}`);
  return control as T;
};

async function type(input: HTMLInputElement, value: string) {
  await act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function select(element: HTMLSelectElement, value: string) {
  await act(() => {
    element.value = value;
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function click(element: HTMLElement) {
  await act(() => element.click());
}

describe('ShareDialog', () => {
  it('lists the owner first as Owner, then each person with their role and Remove', async () => {
    const api = fakeApi({ ...empty, people: [{ ...bea, role: 'viewer' }] });
    await open(api);
    await until(() => expect(text()).toContain('Bea Reader'));
    const rows = [...host.querySelectorAll('.ink-share__person')].map((row) => row.textContent);
    expect(rows[0]).toContain('Ada Owner');
    expect(rows[0]).toContain('Owner');
    expect(byLabel<HTMLSelectElement>('Role of Bea Reader').value).toBe('viewer');
    api.removePerson.mockResolvedValueOnce(empty);
    await click(button('Remove Bea Reader'));
    expect(api.removePerson).toHaveBeenCalledWith(DOC, 'u-bea');
    await until(() => expect(text()).not.toContain('Bea Reader'));
  });

  it('shows the account of a valid address before sharing, and shares with the role chosen', async () => {
    const api = fakeApi();
    api.findPerson.mockResolvedValueOnce(bea);
    api.sharePerson.mockResolvedValueOnce({ ...empty, people: [{ ...bea, role: 'viewer' }] });
    await open(api);
    await until(() => expect(text()).toContain('Owner'));
    const email = byLabel<HTMLInputElement>('Add someone by e-mail address');
    await type(email, 'bea@exa');
    expect(button('Share').disabled).toBe(true);
    await type(email, 'bea@example.com');
    await until(() => expect(text()).toContain('Bea Reader · bea@example.com'));
    expect(api.findPerson).toHaveBeenCalledTimes(1);
    await select(byLabel('Role to give'), 'viewer');
    await click(button('Share'));
    expect(api.sharePerson).toHaveBeenCalledWith(DOC, 'bea@example.com', 'viewer');
    await until(() =>
      expect(byLabel<HTMLSelectElement>('Role of Bea Reader').value).toBe('viewer'),
    );
    await until(() => expect(email.value).toBe(''));
  });

  it('says when no account uses an address, and keeps Share off', async () => {
    const api = fakeApi();
    api.findPerson.mockRejectedValueOnce(new ApiError('not_found', 'No account.', 404));
    await open(api);
    await until(() => expect(text()).toContain('Owner'));
    await type(byLabel('Add someone by e-mail address'), 'nobody@example.com');
    await until(() => expect(text()).toContain('No account uses this address.'));
    expect(button('Share').disabled).toBe(true);
  });

  it('says how long to wait after too many lookups', async () => {
    const api = fakeApi();
    api.findPerson.mockRejectedValueOnce(
      new ApiError('rate_limited', 'Too many.', 429, {}, undefined, 42),
    );
    await open(api);
    await until(() => expect(text()).toContain('Owner'));
    await type(byLabel('Add someone by e-mail address'), 'x@example.com');
    await until(() => expect(text()).toContain('Try again in 42 s.'));
  });

  it('turns the link on with a role, shows its address, and asks before making a new one', async () => {
    const api = fakeApi();
    const withLink = (url: string): SharingState => ({
      ...empty,
      link: { role: 'viewer', url, createdAt: '2026-01-01T00:00:00.000Z' },
    });
    api.setLink.mockResolvedValueOnce(withLink(LINK));
    api.resetLink.mockResolvedValueOnce(withLink(`${LINK}x`));
    await open(api);
    await until(() => expect(text()).toContain('Owner'));
    expect(text()).not.toContain('Make a new link');
    await select(byLabel('Anyone with the link who signs in'), 'viewer');
    expect(api.setLink).toHaveBeenCalledWith(DOC, 'viewer');
    await until(() => expect(byLabel<HTMLInputElement>('The link').value).toBe(LINK));
    await click(button('Make a new link'));
    expect(document.body.textContent).toContain('people who came in through it lose access');
    expect(api.resetLink).not.toHaveBeenCalled();
    const confirm = host.querySelector<HTMLButtonElement>(
      '.ink-dialog--small .ink-button--primary',
    );
    expect(confirm?.textContent).toBe('Make a new link');
    await click(confirm as HTMLButtonElement);
    expect(api.resetLink).toHaveBeenCalledWith(DOC);
    await until(() => expect(byLabel<HTMLInputElement>('The link').value).toBe(`${LINK}x`));
  });

  it('turns the link off', async () => {
    const api = fakeApi({
      ...empty,
      link: { role: 'editor', url: LINK, createdAt: '2026-01-01T00:00:00.000Z' },
    });
    api.deleteLink.mockResolvedValueOnce(empty);
    await open(api);
    await until(() => expect(text()).toContain('Make a new link'));
    await select(byLabel('Anyone with the link who signs in'), 'off');
    expect(api.deleteLink).toHaveBeenCalledWith(DOC);
    await until(() => expect(text()).not.toContain('Make a new link'));
  });

  it('publishes unindexed without expiry, then sets an expiry and indexing, and unpublishes', async () => {
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    const page = {
      url: PAGE,
      indexable: false,
      expiresAt: null,
      publishedAt: '2026-03-01T12:00:00.000Z',
    };
    const api = fakeApi();
    api.publish
      .mockResolvedValueOnce({ ...empty, published: page })
      .mockResolvedValueOnce({
        ...empty,
        published: { ...page, expiresAt: '2026-03-08T12:00:00.000Z' },
      })
      .mockResolvedValueOnce({
        ...empty,
        published: { ...page, indexable: true, expiresAt: '2026-03-08T12:00:00.000Z' },
      });
    api.unpublish.mockResolvedValueOnce(empty);
    await open(api, () => now);
    await until(() => expect(text()).toContain('Owner'));
    await click(button('Publish'));
    expect(api.publish).toHaveBeenLastCalledWith(DOC, { indexable: false, expiresAt: null });
    await until(() => expect(byLabel<HTMLInputElement>('The page').value).toBe(PAGE));
    expect(button('Open').getAttribute('href')).toBe(PAGE);
    const index = host.querySelector<HTMLInputElement>('input[type="checkbox"]');
    expect(index?.checked).toBe(false);
    await select(byLabel('Stops being published after'), '7');
    expect(api.publish).toHaveBeenLastCalledWith(DOC, {
      indexable: false,
      expiresAt: '2026-03-08T12:00:00.000Z',
    });
    await until(() =>
      expect(byLabel<HTMLSelectElement>('Stops being published after').value).toBe('set'),
    );
    await click(index as HTMLInputElement);
    expect(api.publish).toHaveBeenLastCalledWith(DOC, {
      indexable: true,
      expiresAt: '2026-03-08T12:00:00.000Z',
    });
    await until(() => expect(index?.checked).toBe(true));
    await click(button('Unpublish'));
    expect(api.unpublish).toHaveBeenCalledWith(DOC);
    await until(() => expect(text()).not.toContain(PAGE));
  });

  it('publishes through the end of a chosen day, refusing a past day and keeping one the server refused', async () => {
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    const page = { url: PAGE, indexable: false, expiresAt: null, publishedAt: '2026-03-01' };
    // The page is read through the whole of 10 March, in the owner's time.
    const end = new Date(2026, 2, 11).toISOString();
    const api = fakeApi({ ...empty, published: page });
    api.publish
      .mockRejectedValueOnce(new NetworkError('The server could not be reached.'))
      .mockResolvedValueOnce({ ...empty, published: { ...page, expiresAt: end } });
    await open(api, () => now);
    await until(() => expect(byLabel<HTMLInputElement>('The page').value).toBe(PAGE));
    await select(byLabel('Stops being published after'), 'date');
    const day = byLabel<HTMLInputElement>('Last day published');
    expect(day.type).toBe('date');
    expect(api.publish).not.toHaveBeenCalled();
    await type(day, '2026-02-20');
    await click(button('Set'));
    expect(text()).toContain('Choose today or a later day.');
    expect(api.publish).not.toHaveBeenCalled();
    await type(day, '2026-03-10');
    await click(button('Set'));
    expect(api.publish).toHaveBeenLastCalledWith(DOC, { indexable: false, expiresAt: end });
    await until(() => expect(text()).toContain('Check your connection'));
    expect(byLabel<HTMLInputElement>('Last day published').value).toBe('2026-03-10');
    await click(button('Set'));
    expect(api.publish).toHaveBeenCalledTimes(2);
    await until(() => expect(host.querySelector('input[type="date"]')).toBeNull());
    expect(byLabel<HTMLSelectElement>('Stops being published after').value).toBe('set');
  });

  it('shows a failed change inline, and offline as a connection problem', async () => {
    const api = fakeApi();
    api.setLink.mockRejectedValueOnce(new NetworkError('The server could not be reached.'));
    await open(api);
    await until(() => expect(text()).toContain('Owner'));
    await select(byLabel('Anyone with the link who signs in'), 'editor');
    await until(() =>
      expect(host.querySelector('[role="alert"]')?.textContent).toContain('Check your connection'),
    );
  });

  it('says so when the document cannot be shared, and tries again on request', async () => {
    const api = fakeApi();
    api.state.mockRejectedValueOnce(new ApiError('not_found', 'There is no such document.', 404));
    await open(api);
    await until(() => expect(text()).toContain('There is no such document.'));
    await click(button('Try again'));
    await until(() => expect(text()).toContain('Owner'));
  });
});
