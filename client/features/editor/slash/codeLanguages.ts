/** A language offered for code blocks. */
export interface CodeLanguage {
  /** Its name as people write it. */
  name: string;
  /** The info string stored after the fence, a highlight.js grammar name. */
  value: string;
  /** Other names that find it. */
  aliases: readonly string[];
}

/** The languages the code-block choice lists; any other info string can still be typed. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { name: 'JavaScript', value: 'javascript', aliases: ['js', 'jsx', 'node'] },
  { name: 'TypeScript', value: 'typescript', aliases: ['ts', 'tsx'] },
  { name: 'Python', value: 'python', aliases: ['py'] },
  { name: 'HTML', value: 'html', aliases: ['xml'] },
  { name: 'CSS', value: 'css', aliases: ['scss'] },
  { name: 'JSON', value: 'json', aliases: [] },
  { name: 'Shell', value: 'bash', aliases: ['sh', 'bash', 'zsh', 'terminal'] },
  { name: 'SQL', value: 'sql', aliases: [] },
  { name: 'Markdown', value: 'markdown', aliases: ['md'] },
  { name: 'YAML', value: 'yaml', aliases: ['yml'] },
  { name: 'Go', value: 'go', aliases: ['golang'] },
  { name: 'Rust', value: 'rust', aliases: ['rs'] },
  { name: 'Java', value: 'java', aliases: [] },
  { name: 'Kotlin', value: 'kotlin', aliases: ['kt'] },
  { name: 'Swift', value: 'swift', aliases: [] },
  { name: 'C', value: 'c', aliases: [] },
  { name: 'C++', value: 'cpp', aliases: ['cpp', 'cc'] },
  { name: 'C#', value: 'csharp', aliases: ['cs', 'dotnet'] },
  { name: 'Ruby', value: 'ruby', aliases: ['rb'] },
  { name: 'PHP', value: 'php', aliases: [] },
  { name: 'Diff', value: 'diff', aliases: ['patch'] },
];

/**
 * The info string for what was typed in the language field: a known name or alias becomes its
 * grammar name (`Python` → `python`), anything else is kept as typed; empty means plain text.
 */
export function languageInfo(typed: string): string | null {
  const text = typed.trim();
  if (text === '') return null;
  const lower = text.toLowerCase();
  const known = CODE_LANGUAGES.find(
    (lang) =>
      lang.name.toLowerCase() === lower || lang.value === lower || lang.aliases.includes(lower),
  );
  return known ? known.value : text;
}
