import type {
  GrantedRole,
  JoinLinkResponse,
  Person,
  PublishRequest,
  SharingState,
} from '../../../common/api/sharing.ts';
import { api } from '../../lib/api.ts';

const sharingUrl = (documentId: string) =>
  `/api/documents/${encodeURIComponent(documentId)}/sharing`;

/**
 * The sharing API (common/api/sharing.ts) as the share dialog calls it; every change answers
 * with the whole new state. An interface so that tests hand the dialog a fake.
 */
export interface SharingApi {
  /** Who has the document, its link and its published page (owner only). */
  state(documentId: string): Promise<SharingState>;
  /** The account with exactly this address; 404 `not_found` when none has it. */
  findPerson(email: string): Promise<Person>;
  /** Shares with the account of `email`, or changes its role. */
  sharePerson(documentId: string, email: string, role: GrantedRole): Promise<SharingState>;
  /** A new role for someone already in. */
  changeRole(documentId: string, userId: string, role: GrantedRole): Promise<SharingState>;
  /** Takes someone's access away. */
  removePerson(documentId: string, userId: string): Promise<SharingState>;
  /** Turns the link on with this role, or changes its role. */
  setLink(documentId: string, role: GrantedRole): Promise<SharingState>;
  /** A new address for the link: the old one and everyone who came through it lose access. */
  resetLink(documentId: string): Promise<SharingState>;
  /** Turns the link off. */
  deleteLink(documentId: string): Promise<SharingState>;
  /** Publishes the document, or changes the published page's settings. */
  publish(documentId: string, settings: PublishRequest): Promise<SharingState>;
  /** Unpublishes at once. */
  unpublish(documentId: string): Promise<SharingState>;
}

/** The app's {@link SharingApi}, on the API client. */
export const sharingApi: SharingApi = {
  state: (id) => api.get(sharingUrl(id), (s) => s.sharingStateSchema),
  findPerson: async (email) => {
    const query = new URLSearchParams({ email });
    const { person } = await api.get(`/api/people?${query}`, (s) => s.findPersonResponseSchema);
    return person;
  },
  sharePerson: (id, email, role) =>
    api.put(`${sharingUrl(id)}/people`, { email, role }, (s) => s.sharingStateSchema),
  changeRole: (id, userId, role) =>
    api.patch(
      `${sharingUrl(id)}/people/${encodeURIComponent(userId)}`,
      { role },
      (s) => s.sharingStateSchema,
    ),
  removePerson: (id, userId) =>
    api.deleteWith(
      `${sharingUrl(id)}/people/${encodeURIComponent(userId)}`,
      (s) => s.sharingStateSchema,
    ),
  setLink: (id, role) => api.put(`${sharingUrl(id)}/link`, { role }, (s) => s.sharingStateSchema),
  resetLink: (id) =>
    api.post(`${sharingUrl(id)}/link/reset`, undefined, (s) => s.sharingStateSchema),
  deleteLink: (id) => api.deleteWith(`${sharingUrl(id)}/link`, (s) => s.sharingStateSchema),
  publish: (id, settings) =>
    api.put(`${sharingUrl(id)}/publish`, settings, (s) => s.sharingStateSchema),
  unpublish: (id) => api.deleteWith(`${sharingUrl(id)}/publish`, (s) => s.sharingStateSchema),
};

/** Comes in through a document's link (as {@link joinLink} does). */
export type JoinLink = (token: string) => Promise<JoinLinkResponse>;

/** Comes in through a document's link; 404 `not_found` for a link that opens nothing now. */
export function joinLink(token: string): Promise<JoinLinkResponse> {
  return api.post('/api/share-links/join', { token }, (s) => s.joinLinkResponseSchema);
}
