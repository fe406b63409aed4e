export { MarkdownTooDeepError } from './MarkdownTooDeepError.ts';
export { parseMarkdown, parseMarkdownFragment } from './parseMarkdown.ts';
export { serializeMarkdown } from './serializeMarkdown.ts';
export {
  checkMarkdownFileSize,
  checkMarkdownText,
  decodeMarkdownFile,
  MarkdownImportError,
  MARKDOWN_IMPORT_LIMIT,
} from './decode.ts';
