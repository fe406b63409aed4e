import Youtube from '@tiptap/extension-youtube';
import { parseYoutubeUrl, youtubeEmbedUrl } from '../url.ts';

const videoOf = (element: HTMLElement) => parseYoutubeUrl(element.getAttribute('src') ?? '');

/**
 * A YouTube embed (`src`, `start`, `width`, `height`). Only YouTube URLs are accepted, and every
 * one is stored and shown as its youtube-nocookie embed address.
 */
export const Video = Youtube.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      src: {
        default: null,
        parseHTML: (element) => {
          const video = videoOf(element);
          return video ? youtubeEmbedUrl({ ...video, start: 0 }) : null;
        },
      },
      start: {
        default: 0,
        parseHTML: (element) => videoOf(element)?.start ?? 0,
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
        // An embed pasted from YouTube or another page, without Tiptap's wrapper.
        tag: 'iframe[src]',
        getAttrs: (element) => (videoOf(element) ? null : false),
      },
    ];
  },
}).configure({ nocookie: true, width: 640, height: 360, allowFullscreen: true });
