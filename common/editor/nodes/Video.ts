import Youtube from '@tiptap/extension-youtube';
import { parseYoutubeUrl, youtubeEmbedUrl } from '../url.ts';

/**
 * A YouTube embed (`src`, `start`, `width`, `height`). Only YouTube URLs are accepted and every
 * one is shown through youtube-nocookie.
 */
export const Video = Youtube.extend({
  parseHTML() {
    return [
      {
        tag: 'div[data-youtube-video] iframe',
        getAttrs: (element) => {
          const video = parseYoutubeUrl(element.getAttribute('src') ?? '');
          return video
            ? { src: youtubeEmbedUrl({ ...video, start: 0 }), start: video.start }
            : false;
        },
      },
    ];
  },
}).configure({ nocookie: true, width: 640, height: 360, allowFullscreen: true });
