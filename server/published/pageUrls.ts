import { isFileUrl } from '../../common/api/fileUrl.ts';
import { isAllowedImageUrl, isAllowedLinkUrl } from '../../common/editor/url.ts';

/*
 * The addresses a published page holds. Its images load without the reader's session: an
 * uploaded file (`/files/<id>`, which needs one) is served again under the page's own address,
 * and any other image comes from https or a data URL, which is what its Content-Security-Policy
 * lets load. A relative address would reach this server's other routes with the reader's cookies
 * (an image that signs a reader out of Inkwell), so it is no image of a page.
 */

const PAGE_FILE =
  /^\/p\/[A-Za-z0-9_-]{43}\/files\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOADABLE = /^(?:https:|data:)/i;

/** Every link on the page gets this: a target gets no handle on the page and no endorsement. */
export const LINK_REL = 'noopener noreferrer nofollow ugc';

/** The address under which the page of `token` serves uploaded file `fileId`. */
export function pageFileUrl(token: string, fileId: string): string {
  return `/p/${token}/files/${fileId}`;
}

/** The id of the uploaded file `url` addresses (`/files/<id>`), or null for any other address. */
export function uploadedFileId(url: string): string | null {
  return isFileUrl(url) ? url.slice('/files/'.length).toLowerCase() : null;
}

/** True when a published page may load `url` as an image. */
export function isPageImageUrl(url: string): boolean {
  return PAGE_FILE.test(url) || (LOADABLE.test(url) && isAllowedImageUrl(url));
}

/** How one rendering of a page addresses uploaded files, and which files it showed or linked. */
export class PageFiles {
  /** The ids of the uploaded files the page addressed: the only ones it serves. */
  readonly ids = new Set<string>();

  constructor(private readonly token: string) {}

  /** The address to write for an image's `src`, or null when the page shows no image from it. */
  imageSrc(src: string): string | null {
    const id = uploadedFileId(src);
    if (id === null) return isPageImageUrl(src) ? src : null;
    this.ids.add(id);
    return pageFileUrl(this.token, id);
  }

  /** The address to write for a link's `href`, or null when the link rule refuses it. */
  linkHref(href: string): string | null {
    const id = uploadedFileId(href);
    if (id === null) return isAllowedLinkUrl(href) ? href : null;
    this.ids.add(id);
    return pageFileUrl(this.token, id);
  }
}
