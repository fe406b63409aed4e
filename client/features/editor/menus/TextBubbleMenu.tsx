import type { Editor } from '@tiptap/core';
import { NodeSelection, type Transaction } from '@tiptap/pm/state';
import { BubbleMenu, type BubbleMenuProps } from '@tiptap/react/menus';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { openAiMenu } from '../../ai/aiTrigger.ts';
import { turnInto, type BlockTypeId } from './blockTypes.ts';
import {
  hideWhenFocusLeaves,
  editorOrMenuHasFocus,
  isFormattableSelection,
  keepEditorFocus,
  sendBubbleRequest,
  useBubbleResize,
  useHideOnOutsidePress,
} from './bubble.ts';
import { FormatToolbar, type PanelName } from './FormatToolbar.tsx';
import { useMenuRequests } from './useMenuRequests.ts';
import { useRovingFocus } from './useRovingFocus.ts';
import { isSuggestionShown, showsSuggestion } from '../../ai/suggestionKey.ts';
import { useToolbarState } from './useToolbarState.ts';

const LinkForm = lazy(() => import('./LinkForm.tsx').then((m) => ({ default: m.LinkForm })));
const SwatchPalette = lazy(() =>
  import('./SwatchPalette.tsx').then((m) => ({ default: m.SwatchPalette })),
);
const TurnIntoMenu = lazy(() =>
  import('./TurnIntoMenu.tsx').then((m) => ({ default: m.TurnIntoMenu })),
);

/** Fetches the panels' code the first time the menu shows, so opening one never waits. */
function preloadPanels() {
  void import('./LinkForm.tsx');
  void import('./SwatchPalette.tsx');
  void import('./TurnIntoMenu.tsx');
}

const PLUGIN_KEY = 'inkwellTextMenu';

type Mode =
  | { kind: 'toolbar'; panel: PanelName | null; focusPanel: boolean }
  | { kind: 'link'; href: string; canRemove: boolean };

const TOOLBAR: Mode = { kind: 'toolbar', panel: null, focusPanel: false };

type ShouldShow = NonNullable<BubbleMenuProps['shouldShow']>;

/** The bubble menu of a text selection: formatting toolbar, its panels and the link popover. */
export function TextBubbleMenu({ editor }: { editor: Editor }) {
  const state = useToolbarState(editor);
  const [mode, setModeState] = useState<Mode>(TOOLBAR);
  // The plugin's shouldShow reads the mode between renders.
  const modeRef = useRef<Mode>(TOOLBAR);
  const setMode = useCallback((next: Mode) => {
    modeRef.current = next;
    setModeState(next);
  }, []);
  const visible = useRef(false);
  const anchor = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const roving = useRovingFocus<HTMLDivElement>({ orientation: 'horizontal' });
  const panelId = useId();
  useBubbleResize(editor, PLUGIN_KEY, content);
  useHideOnOutsidePress(editor, PLUGIN_KEY, content);

  useEffect(() => {
    // A new selection (a click elsewhere in the text) closes the link form and any panel.
    const onSelectionUpdate = () => {
      if (modeRef.current !== TOOLBAR) setMode(TOOLBAR);
    };
    editor.on('selectionUpdate', onSelectionUpdate);
    // The plugin re-asks shouldShow only when the selection or the text changes, so a suggestion
    // that appears over a selection hides the toolbar itself.
    const onTransaction = ({ transaction }: { transaction: Transaction }) => {
      if (showsSuggestion(transaction)) {
        queueMicrotask(() => sendBubbleRequest(editor, PLUGIN_KEY, 'hide'));
      }
    };
    editor.on('transaction', onTransaction);
    return () => {
      editor.off('selectionUpdate', onSelectionUpdate);
      editor.off('transaction', onTransaction);
    };
  }, [editor, setMode]);

  useEffect(() => {
    // The plugin makes its element a tab stop; the toolbar inside already is one.
    anchor.current?.setAttribute('tabindex', '-1');
  }, [editor]);

  const shouldShow = useCallback<ShouldShow>(({ editor: e, view, state: s, element }) => {
    if (!editorOrMenuHasFocus(view, element) || !e.isEditable) return false;
    // The suggestion box has its own actions; formatting the text under it would only confuse.
    if (isSuggestionShown(s)) return false;
    if (modeRef.current.kind === 'link') return !(s.selection instanceof NodeSelection);
    return isFormattableSelection(s);
  }, []);

  const options = useMemo<BubbleMenuProps['options']>(
    () => ({
      // On touch screens the system's copy/paste bar sits above the selection: stay clear of it.
      placement: window.matchMedia?.('(pointer: coarse)').matches ? 'bottom' : 'top',
      offset: 8,
      flip: { padding: 8 },
      shift: { padding: 8 },
      onShow: () => {
        visible.current = true;
        preloadPanels();
      },
      onHide: () => {
        visible.current = false;
        setMode(TOOLBAR);
      },
    }),
    [setMode],
  );

  const show = useCallback(() => {
    if (visible.current) return;
    sendBubbleRequest(editor, PLUGIN_KEY, 'show');
    sendBubbleRequest(editor, PLUGIN_KEY, 'updatePosition');
  }, [editor]);

  // Before swapping the toolbar for the link form, park focus on the menu itself: a focused
  // element that disappears sends focus to the page, which would close the menu.
  const holdFocus = useCallback(() => {
    if (content.current?.contains(document.activeElement)) content.current.focus();
  }, []);

  // view.focus() moves focus at once (commands.focus() waits a frame) and restores the selection.
  const backToText = useCallback(() => {
    editor.view.focus();
    setMode(TOOLBAR);
    if (!isFormattableSelection(editor.state)) sendBubbleRequest(editor, PLUGIN_KEY, 'hide');
  }, [editor, setMode]);

  const openLink = useCallback((): boolean => {
    const { selection } = editor.state;
    if (selection instanceof NodeSelection || selection.$from.parent.type.spec.code) return false;
    if (selection.empty && editor.isActive('link')) editor.commands.extendMarkRange('link');
    const href: unknown = editor.getAttributes('link').href;
    holdFocus();
    setMode({
      kind: 'link',
      href: typeof href === 'string' ? href : '',
      canRemove: editor.isActive('link'),
    });
    show();
    return true;
  }, [editor, setMode, show, holdFocus]);

  useMenuRequests(editor, (request) => {
    if (request === 'link') return openLink();
    if (!visible.current && !isFormattableSelection(editor.state)) return false;
    show();
    if (modeRef.current.kind === 'link') {
      content.current?.querySelector('input')?.focus();
      return true;
    }
    return roving.focus();
  });

  const applyLink = (href: string) => {
    // Leave link mode first: the transaction below re-runs shouldShow.
    editor.view.focus();
    setMode(TOOLBAR);
    const chain = editor.chain();
    if (editor.state.selection.empty) {
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] });
    } else {
      chain.setLink({ href });
    }
    chain.run();
  };

  const removeLink = () => {
    editor.view.focus();
    setMode(TOOLBAR);
    editor.commands.unsetLink();
  };

  const closePanel = () => {
    // Move focus before the panel unmounts, so it never falls back to the page.
    if (content.current?.contains(document.activeElement)) roving.focus();
    setMode(TOOLBAR);
  };

  const togglePanel = (panel: PanelName) => {
    const current = modeRef.current;
    if (current.kind === 'toolbar' && current.panel === panel) {
      closePanel();
      return;
    }
    const fromKeyboard = content.current?.contains(document.activeElement) ?? false;
    setMode({ kind: 'toolbar', panel, focusPanel: fromKeyboard });
  };

  const pickColor = (value: string | null) => {
    if (value) editor.commands.setColor(value);
    else editor.commands.unsetColor();
    closePanel();
  };

  const pickHighlight = (value: string | null) => {
    if (value) editor.commands.setHighlight({ color: value });
    else editor.commands.unsetHighlight();
    closePanel();
  };

  const pickBlock = (id: BlockTypeId) => {
    turnInto(editor.chain(), id, state.block).run();
    closePanel();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    backToText();
  };

  const onBlur = (event: FocusEvent) =>
    hideWhenFocusLeaves(event, editor, content, () => {
      setMode(TOOLBAR);
      sendBubbleRequest(editor, PLUGIN_KEY, 'hide');
    });

  const panel = mode.kind === 'toolbar' ? mode.panel : null;
  const panelProps = {
    id: panelId,
    onClose: closePanel,
    autoFocus: mode.kind === 'toolbar' && mode.focusPanel,
  };

  return (
    <BubbleMenu
      ref={anchor}
      editor={editor}
      pluginKey={PLUGIN_KEY}
      shouldShow={shouldShow}
      options={options}
      className="ink-bubble-anchor"
    >
      <div
        ref={content}
        tabIndex={-1}
        className="ink-bubble"
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        onMouseDown={keepEditorFocus}
      >
        {mode.kind === 'link' ? (
          <Suspense fallback={null}>
            <LinkForm
              initialHref={mode.href}
              canRemove={mode.canRemove}
              onApply={applyLink}
              onRemove={removeLink}
              onCancel={backToText}
            />
          </Suspense>
        ) : (
          <FormatToolbar
            editor={editor}
            state={state}
            openPanel={panel}
            panelId={panelId}
            onTogglePanel={togglePanel}
            onLink={openLink}
            onAi={() => {
              // The AI menu takes over from the toolbar, next to the same selection.
              sendBubbleRequest(editor, PLUGIN_KEY, 'hide');
              openAiMenu(editor, 'commands');
            }}
            roving={roving}
          />
        )}
        {panel && (
          <Suspense fallback={null}>
            {panel === 'turnInto' ? (
              <TurnIntoMenu {...panelProps} current={state.block} onPick={pickBlock} />
            ) : (
              <SwatchPalette
                {...panelProps}
                kind={panel}
                current={panel === 'color' ? state.color : state.highlight}
                onPick={panel === 'color' ? pickColor : pickHighlight}
              />
            )}
          </Suspense>
        )}
      </div>
    </BubbleMenu>
  );
}
