import { Dialog } from '../../components/Dialog.tsx';
import { formatShortcut } from '../../lib/platform.ts';
import { MARKDOWN_SHORTCUTS, SHORTCUT_GROUPS } from './shortcutList.ts';

/** Props of {@link ShortcutSheet}. */
export interface ShortcutSheetProps {
  /** Whether the sheet is shown. */
  open: boolean;
  /** Closes the sheet. */
  onClose: () => void;
}

/** The dialog listing every keyboard and Markdown shortcut (Mod-/). */
export function ShortcutSheet({ open, onClose }: ShortcutSheetProps) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose} className="ink-shortcuts">
      <div className="ink-shortcuts__groups">
        {SHORTCUT_GROUPS.map((group) => (
          <section key={group.title} className="ink-shortcuts__group">
            <h3>{group.title}</h3>
            <dl>
              {group.entries.map((entry) => (
                <div key={entry.label} className="ink-shortcuts__row">
                  <dt>{entry.label}</dt>
                  <dd>
                    {entry.keys.map((keys, index) => (
                      <span key={keys}>
                        {index > 0 ? <span className="ink-shortcuts__or"> or </span> : null}
                        <kbd>{formatShortcut(keys)}</kbd>
                      </span>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <section className="ink-shortcuts__group">
          <h3>Markdown</h3>
          <dl>
            {MARKDOWN_SHORTCUTS.map((entry) => (
              <div key={entry.typed} className="ink-shortcuts__row">
                <dt>{entry.result}</dt>
                <dd>
                  <kbd>{entry.typed.trim() || entry.typed}</kbd>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </Dialog>
  );
}
