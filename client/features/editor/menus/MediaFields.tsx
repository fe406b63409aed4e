import type { Editor } from '@tiptap/core';
import { pickImages } from '../uploads/ImageUpload.ts';
import { Icon } from './icons.tsx';
import { MediaField } from './MediaField.tsx';
import { formatStartTime, parsePixels, parseStartTime, type FieldResult } from './mediaInput.ts';
import { deleteMedia, updateMediaAttributes, type MediaTarget } from './mediaTarget.ts';

/** Props of {@link MediaFields}. */
export interface MediaFieldsProps {
  /** The editor holding the node. */
  editor: Editor;
  /** The selected image or video. */
  target: MediaTarget;
  /** Returns focus to the text (Escape in a field). */
  onDone: () => void;
}

const text = (value: string): FieldResult<string | null> => ({
  ok: true,
  value: value.trim() === '' ? null : value.trim(),
});

/** Resizing by width keeps a stored aspect ratio; clearing the width restores the natural size. */
function sizeForWidth(target: MediaTarget, width: number | null) {
  if (width === null) return { width: null, height: null };
  const height =
    target.width && target.height ? Math.round((target.height * width) / target.width) : null;
  return { width, height };
}

/** The schema's default for a node attribute, such as the video's 640 × 360. */
function attributeDefault(editor: Editor, type: string, name: string): number | null {
  const value: unknown = editor.schema.nodes[type]?.spec.attrs?.[name]?.default;
  return typeof value === 'number' ? value : null;
}

/** The fields of the media menu: alt text, title and width for images; start and size for videos. */
export function MediaFields({ editor, target, onDone }: MediaFieldsProps) {
  const set = (attrs: Record<string, unknown>) => updateMediaAttributes(editor, target, attrs);
  const isVideo = target.type === 'youtube';
  const videoSize = (name: 'width' | 'height') => {
    const fallback = attributeDefault(editor, target.type, name);
    return (
      <MediaField
        label={name === 'width' ? 'Width' : 'Height'}
        narrow
        inputMode="numeric"
        value={target[name] === null ? '' : String(target[name])}
        placeholder={fallback === null ? undefined : String(fallback)}
        parse={parsePixels}
        onCommit={(value) => set({ [name]: value ?? fallback })}
        onCancel={onDone}
      />
    );
  };

  return (
    <div
      className="ink-media"
      role="group"
      aria-label={isVideo ? 'Video settings' : 'Image settings'}
    >
      {isVideo ? (
        <>
          <MediaField
            label="Start time"
            narrow
            value={formatStartTime(target.start)}
            placeholder="0:00"
            parse={parseStartTime}
            onCommit={(start) => set({ start })}
            onCancel={onDone}
          />
          {videoSize('width')}
          {videoSize('height')}
        </>
      ) : (
        <>
          <MediaField
            label="Alt text"
            value={target.alt}
            placeholder="Describe the image"
            parse={text}
            onCommit={(alt) => set({ alt })}
            onCancel={onDone}
          />
          <MediaField
            label="Title"
            value={target.title}
            placeholder="Shown on hover"
            parse={text}
            onCommit={(title) => set({ title })}
            onCancel={onDone}
          />
          <MediaField
            label="Width"
            narrow
            inputMode="numeric"
            value={target.width === null ? '' : String(target.width)}
            placeholder="Auto"
            parse={parsePixels}
            onCommit={(width) => set(sizeForWidth(target, width))}
            onCancel={onDone}
          />
        </>
      )}
      {isVideo ? null : (
        <button
          type="button"
          className="ink-tool"
          aria-label="Replace image"
          title="Replace image"
          onClick={() =>
            pickImages(([file]) => {
              if (file) editor.chain().focus().replaceImage(target.pos, file).run();
            }, false)
          }
        >
          <Icon name="upload" />
        </button>
      )}
      <button
        type="button"
        className="ink-tool ink-tool--danger"
        aria-label={isVideo ? 'Delete video' : 'Delete image'}
        title={isVideo ? 'Delete video' : 'Delete image'}
        onClick={() => deleteMedia(editor, target)}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}
