import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

type Sanitize = (html: string) => string;

let sanitize: Sanitize | null = null;
let tooDeep: ((html: string) => boolean) | null = null;
let loading: Promise<Sanitize> | null = null;

/**
 * Loads Inkwell's HTML sanitiser and the nesting check of pasted HTML (depthLimit.ts), kept out
 * of the first download; resolves once they are ready.
 */
export function loadHtmlSanitizer(): Promise<Sanitize> {
  loading ??= Promise.all([
    import('../../../../common/editor/html/sanitize.ts'),
    import('../htmlDepth.ts'),
  ]).then(
    ([module, depth]) => {
      sanitize = module.sanitizeHtml;
      tooDeep = depth.tokensTooDeep;
      return sanitize;
    },
    (error: unknown) => {
      // A failed chunk load (offline, new deploy) must not poison every later paste.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * Sanitises raw HTML pasted into the editor, or null while the sanitiser is still loading (the
 * raw HTML is then left out, never let in unchecked).
 */
export function sanitizeIfReady(html: string): string | null {
  return sanitize ? sanitize(html) : null;
}

/**
 * Whether pasted HTML nests its elements too deep (depthLimit.ts), read by the HTML tokenizer;
 * null while that is still loading.
 */
export function htmlTooDeepIfReady(html: string): boolean | null {
  return tooDeep ? tooDeep(html) : null;
}

/** A paste event carrying a copy of `data`, to replay a paste once the sanitiser is there. */
function replayedPaste(data: DataTransfer): ClipboardEvent {
  const copy = new DataTransfer();
  for (const type of data.types) {
    if (type !== 'Files') copy.setData(type, data.getData(type));
  }
  return new ClipboardEvent('paste', { clipboardData: copy });
}

/** Holds an HTML paste until the sanitiser has loaded, then runs it through the editor. */
function pasteOnceLoaded(view: EditorView, event: ClipboardEvent): boolean {
  const data = event.clipboardData;
  const html = data?.getData('text/html') ?? '';
  if (sanitize || !data || !html) return false;
  event.preventDefault();
  const replay = replayedPaste(data);
  loadHtmlSanitizer().then(
    () => {
      if (!view.isDestroyed) view.pasteHTML(html, replay);
    },
    () => {
      // Offline: paste without raw HTML rather than not at all.
      if (!view.isDestroyed) view.pasteHTML(html, replay);
    },
  );
  return true;
}

/**
 * Loads the sanitiser on its first need instead of at start: documents that never receive pasted
 * or dropped HTML never download it. An HTML paste that comes first waits for it (one small
 * chunk) and is then pasted as usual; a drag loads it on entering the editor, well before the drop.
 */
export const HtmlSanitizerLoader = Extension.create({
  name: 'htmlSanitizerLoader',
  // Before every other paste handler, so that they all see the replayed paste.
  priority: 1001,

  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('inkwellHtmlSanitizerLoader'),
        props: {
          handleDOMEvents: {
            paste: pasteOnceLoaded,
            dragenter: () => {
              if (!sanitize) loadHtmlSanitizer().catch(() => undefined);
              return false;
            },
          },
        },
      }),
    ];
  },
});
