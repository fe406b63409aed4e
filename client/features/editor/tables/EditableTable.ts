import type * as TablesModule from '@tiptap/pm/tables';
import { findParentNodeClosestToPos, mergeAttributes, type Editor } from '@tiptap/core';
import type { Fragment, Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { ReplaceAroundStep, ReplaceStep } from '@tiptap/pm/transform';
import { Table } from '../../../../common/editor/nodes/Table.ts';
import { TableView } from './TableView.ts';

type Tables = typeof TablesModule;

let tables: Tables | null = null;
let loading: Promise<Tables> | null = null;

/** Loads prosemirror-tables (kept out of the first download); resolves once it is ready. */
export function loadTableEditing(): Promise<Tables> {
  loading ??= import('@tiptap/pm/tables').then(
    (module) => (tables = module),
    (error: unknown) => {
      // A failed chunk load (offline, new deploy) must not stop the next table from trying.
      loading = null;
      throw error;
    },
  );
  return loading;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    inkwellTableEditing: {
      /** Moves the cursor to the next cell; false outside a table or in its last cell. */
      goToNextCell: () => ReturnType;
      /** Moves the cursor to the previous cell; false outside a table or in its first cell. */
      goToPreviousCell: () => ReturnType;
      /** Adds a row after the one holding the cursor. */
      addRowAfter: () => ReturnType;
      /** Deletes the table holding the cursor. */
      deleteTable: () => ReturnType;
    };
  }
}

/** Where the table editing plugin goes once loaded, so that it keeps the place Tiptap gave it. */
const slotKey = new PluginKey<boolean>('inkwellTableEditingSlot');

function fragmentHasTable(fragment: Fragment): boolean {
  let found = false;
  fragment.descendants((node) => {
    if (node.type.name === 'table') found = true;
    // Tables are blocks: no need to look inside text blocks.
    return !found && !node.isTextblock;
  });
  return found;
}

function docHasTable(doc: ProseMirrorNode): boolean {
  return fragmentHasTable(doc.content);
}

/** Whether a transaction put a table into the document (typed, pasted, inserted or loaded). */
function addsTable(tr: Transaction): boolean {
  return tr.steps.some(
    (step) =>
      (step instanceof ReplaceStep || step instanceof ReplaceAroundStep) &&
      fragmentHasTable(step.slice.content),
  );
}

/** Puts the loaded table editing plugin where the slot is. */
function install(editor: Editor, module: Tables): void {
  if (editor.isDestroyed || !editor.state.plugins.some((p) => p.spec.key === slotKey)) return;
  editor.registerPlugin(
    module.tableEditing({ allowTableNodeSelection: false }),
    (plugin, plugins) => plugins.map((p) => (p.spec.key === slotKey ? plugin : p)),
  );
}

/**
 * Loads the table editing plugin (cell selection, pasting cells, fixing malformed tables) when
 * the document first has a table: at open, or when one is inserted or pasted. Until then it
 * holds its place among the plugins.
 */
function tableEditingSlot(editor: Editor): Plugin<boolean> {
  return new Plugin<boolean>({
    key: slotKey,
    state: {
      init: (_, state: EditorState) => docHasTable(state.doc),
      apply: (tr, wanted) => wanted || (tr.docChanged && addsTable(tr)),
    },
    view: () => {
      let started = false;
      const start = (state: EditorState) => {
        if (started || !slotKey.getState(state)) return;
        started = true;
        // Plugins cannot be swapped while the view is being set up or updated.
        void loadTableEditing().then(
          (module) => queueMicrotask(() => install(editor, module)),
          () => (started = false),
        );
      };
      queueMicrotask(() => {
        if (!editor.isDestroyed) start(editor.state);
      });
      return { update: (view) => start(view.state) };
    },
  });
}

/**
 * The browser editor's table: the shared schema node plus what editing a table needs, that is
 * Tiptap's node view, commands, keys and plugin, with prosemirror-tables loaded on first need.
 * It starts loading with the first table; a table key pressed before it has loaded waits for it.
 */
export const EditableTable = Table.extend({
  addNodeView() {
    return ({ node, HTMLAttributes }) =>
      new TableView(node, mergeAttributes(this.options.HTMLAttributes, HTMLAttributes));
  },

  addCommands() {
    return {
      ...this.parent?.(),
      goToNextCell:
        () =>
        ({ state, dispatch }) =>
          tables ? tables.goToNextCell(1)(state, dispatch) : false,
      goToPreviousCell:
        () =>
        ({ state, dispatch }) =>
          tables ? tables.goToNextCell(-1)(state, dispatch) : false,
      addRowAfter:
        () =>
        ({ state, dispatch }) =>
          tables ? tables.addRowAfter(state, dispatch) : false,
      deleteTable:
        () =>
        ({ state, dispatch }) =>
          tables ? tables.deleteTable(state, dispatch) : false,
    };
  },

  addKeyboardShortcuts() {
    const deleteWhenAllCellsSelected = () => deleteTableWhenAllCellsSelected(this.editor);
    return {
      Tab: () => whenTablesLoaded(this.editor, () => nextCellOrNewRow(this.editor)),
      'Shift-Tab': () =>
        whenTablesLoaded(this.editor, () => this.editor.commands.goToPreviousCell()),
      Backspace: deleteWhenAllCellsSelected,
      'Mod-Backspace': deleteWhenAllCellsSelected,
      Delete: deleteWhenAllCellsSelected,
      'Mod-Delete': deleteWhenAllCellsSelected,
    };
  },

  addProseMirrorPlugins() {
    return [tableEditingSlot(this.editor)];
  },
});

/** Tab: the next cell, or a new row from the last one. */
function nextCellOrNewRow(editor: Editor): boolean {
  if (editor.commands.goToNextCell()) return true;
  if (!editor.can().addRowAfter()) return false;
  return editor.chain().addRowAfter().goToNextCell().run();
}

/**
 * Runs a table key's command, or, in a table whose editing is still loading (a document just
 * opened, a table just pasted), keeps the key and runs it once loaded: let through, Tab would move
 * the focus out of the editor.
 */
function whenTablesLoaded(editor: Editor, command: () => boolean): boolean {
  if (tables) return command();
  const inTable = findParentNodeClosestToPos(
    editor.state.selection.$from,
    (node) => node.type.name === 'table',
  );
  if (!inTable) return false;
  void loadTableEditing().then(
    () => {
      if (!editor.isDestroyed) command();
    },
    () => undefined,
  );
  return true;
}

/** Deleting with every cell of a table selected deletes the table, as Tiptap's table does. */
function deleteTableWhenAllCellsSelected(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!tables || !(selection instanceof tables.CellSelection)) return false;
  const table = findParentNodeClosestToPos(
    selection.ranges[0]?.$from ?? selection.$from,
    (node) => node.type.name === 'table',
  );
  let cells = 0;
  table?.node.descendants((node) => {
    if (node.type.name === 'table') return false;
    if (node.type.name === 'tableCell' || node.type.name === 'tableHeader') cells += 1;
    return true;
  });
  if (cells !== selection.ranges.length) return false;
  editor.commands.deleteTable();
  return true;
}
