import type { Editor } from '@tiptap/core';
import { DEFAULT_AI_LIMITS } from '../../../common/api/ai.ts';
import { loadMarkdownCodec } from '../editor/markdown/codec.ts';
import { loadServerConfig } from './aiConfig.ts';
import { prepareRequest, type AiCommandRequest } from './aiTarget.ts';
import { SuggestionSession } from './SuggestionSession.ts';
import './ai.css';

interface EditorAi {
  session: SuggestionSession | null;
}

const registered = new WeakMap<Editor, EditorAi>();

/** The editor's AI state; its suggestion plugin is part of the editor (see `AiAssistant`). */
function editorAi(editor: Editor): EditorAi {
  let entry = registered.get(editor);
  if (!entry) {
    const created: EditorAi = { session: null };
    entry = created;
    registered.set(editor, created);
    editor.on('destroy', () => created.session?.discard());
  }
  return entry;
}

/**
 * Runs an AI command on the editor's selection (or its block, document or the text before the
 * caret) and shows the answer as a suggestion below it, in place of any earlier suggestion.
 */
export async function runAiCommand(editor: Editor, command: AiCommandRequest): Promise<void> {
  const [codec, maxChars] = await Promise.all([
    loadMarkdownCodec(),
    // Without the configuration the default cap is a fair guess; the server checks anyway.
    loadServerConfig().then(
      (config) => config.limits.aiInputChars,
      () => DEFAULT_AI_LIMITS.inputChars,
    ),
  ]);
  if (editor.isDestroyed) return;
  const ai = editorAi(editor);
  ai.session?.discard();
  const prepared = prepareRequest(editor.state, command, codec.serializeMarkdown, maxChars);
  const caret = editor.state.selection.to;
  const session = new SuggestionSession(editor, {
    request: prepared.ok ? prepared.request : { ...command, text: '' },
    target: prepared.ok
      ? prepared.target
      : { from: caret, to: caret, insertAt: caret, replaceable: false },
    parseMarkdown: codec.parseMarkdownFragment,
    onEnd: () => {
      if (ai.session === session) ai.session = null;
    },
  });
  ai.session = session;
  session.start(prepared.ok ? undefined : prepared.message);
}
