import CodeBlockBase from '@tiptap/extension-code-block';

/**
 * A fenced code block. `language` holds the whole info string after the fence (`ts title=a.ts`),
 * so that a file keeps it; its first word names the grammar.
 */
export const CodeBlock = CodeBlockBase.configure({
  languageClassPrefix: 'language-',
  defaultLanguage: null,
  enableTabIndentation: true,
});

/** The grammar name of an info string: its first word, lower-cased. */
export function languageOf(info: string | null | undefined): string {
  return (info ?? '').trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
}
