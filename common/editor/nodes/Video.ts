import { Node } from '@tiptap/core';
import { parseYoutubeUrl, youtubeEmbedUrl } from '../url.ts';

/**
 * The node's own code rather than @tiptap/extension-youtube's: Inkwell already reads and writes
 * YouTube addresses itself (url.ts, for every path a video comes in by), and the package's embed
 * builder and its twenty options, none of which Inkwell sets, could not be left out of the build.
 * With the image package's resizing view (Image.ts), that was 4.9 kB gzip of the editor's first
 * download (docs/ARCHITECTURE.md, common/editor/nodes).
 */

const DEFAULT_WIDTH = 640;
const DEFAULT_HEIGHT = 360;

const videoOf = (element: HTMLElement) => parseYoutubeUrl(element.getAttribute('src') ?? '');

/** The stored address without its start: the start is an attribute of its own. */
const storedSource = (raw: string) => {
  const video = parseYoutubeUrl(raw);
  return video ? youtubeEmbedUrl({ ...video, start: 0 }) : null;
};

/** A width or height as the embed gives it: a number, or a string such as `100%`. */
function dimension(value: string | null): number | string | null {
  const text = value?.trim();
  if (!text) return null;
  const number = Number(text);
  return Number.isNaN(number) ? text : number;
}

/**
 * A YouTube embed (`src`, `start`, `width`, `height`). Only YouTube addresses are accepted, and
 * every one is stored and shown as its youtube-nocookie embed address, starting at `start`.
 * Named `youtube`, as documents already stored call it.
 */
export const Video = Node.create({
  name: 'youtube',
  group: 'block',
  draggable: true,

  addAttributes() {
    return {
      src: {
        default: null,
        parseHTML: (element) => storedSource(element.getAttribute('src') ?? ''),
      },
      start: {
        default: 0,
        parseHTML: (element) => videoOf(element)?.start ?? 0,
      },
      width: {
        default: DEFAULT_WIDTH,
        parseHTML: (element) => dimension(element.getAttribute('width')),
      },
      height: {
        default: DEFAULT_HEIGHT,
        parseHTML: (element) => dimension(element.getAttribute('height')),
      },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'div[data-youtube-video] iframe',
        getAttrs: (element) => (videoOf(element) ? null : false),
      },
      {
        // An embed pasted from YouTube or another page, without the wrapper.
        tag: 'iframe[src]',
        getAttrs: (element) => (videoOf(element) ? null : false),
      },
    ];
  },

  renderHTML({ node }) {
    const video = parseYoutubeUrl(String(node.attrs.src ?? ''));
    const start = Number(node.attrs.start) || video?.start || 0;
    const frame: Record<string, string | number | null> = {
      src: video ? youtubeEmbedUrl({ id: video.id, start }) : null,
      width: node.attrs.width as number | string | null,
      height: node.attrs.height as number | string | null,
      allowfullscreen: 'true',
    };
    return ['div', { 'data-youtube-video': '' }, ['iframe', frame]];
  },
});
