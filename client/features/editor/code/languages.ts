import { languageOf } from '../../../../common/editor/nodes/CodeBlock.ts';

/** A grammar the code block can highlight, as offered in the language picker. */
export interface CodeLanguage {
  /** highlight.js's name for the grammar, written into the info string when picked. */
  name: string;
  /** What the picker shows. */
  label: string;
}

/** The grammars Inkwell highlights, alphabetical by label; their code is in grammarModules.ts. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { name: 'bash', label: 'Bash' },
  { name: 'c', label: 'C' },
  { name: 'csharp', label: 'C#' },
  { name: 'cpp', label: 'C++' },
  { name: 'css', label: 'CSS' },
  { name: 'dart', label: 'Dart' },
  { name: 'diff', label: 'Diff' },
  { name: 'dockerfile', label: 'Dockerfile' },
  { name: 'elixir', label: 'Elixir' },
  { name: 'go', label: 'Go' },
  { name: 'graphql', label: 'GraphQL' },
  { name: 'haskell', label: 'Haskell' },
  { name: 'xml', label: 'HTML / XML' },
  { name: 'ini', label: 'INI / TOML' },
  { name: 'java', label: 'Java' },
  { name: 'javascript', label: 'JavaScript' },
  { name: 'json', label: 'JSON' },
  { name: 'kotlin', label: 'Kotlin' },
  { name: 'lua', label: 'Lua' },
  { name: 'makefile', label: 'Makefile' },
  { name: 'markdown', label: 'Markdown' },
  { name: 'objectivec', label: 'Objective-C' },
  { name: 'perl', label: 'Perl' },
  { name: 'php', label: 'PHP' },
  { name: 'powershell', label: 'PowerShell' },
  { name: 'python', label: 'Python' },
  { name: 'r', label: 'R' },
  { name: 'ruby', label: 'Ruby' },
  { name: 'rust', label: 'Rust' },
  { name: 'scala', label: 'Scala' },
  { name: 'scss', label: 'SCSS' },
  { name: 'shell', label: 'Shell session' },
  { name: 'sql', label: 'SQL' },
  { name: 'swift', label: 'Swift' },
  { name: 'typescript', label: 'TypeScript' },
  { name: 'yaml', label: 'YAML' },
];

/**
 * Names people write after a fence for the grammars above. highlight.js declares most of these
 * inside each grammar, but we need them before the grammar is loaded to know which one to load.
 */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  zsh: 'bash',
  // Writers mean a script by ```shell far more often than a transcript.
  shell: 'bash',
  console: 'shell',
  shellsession: 'shell',
  h: 'c',
  cs: 'csharp',
  'c#': 'csharp',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  patch: 'diff',
  docker: 'dockerfile',
  ex: 'elixir',
  exs: 'elixir',
  golang: 'go',
  gql: 'graphql',
  hs: 'haskell',
  html: 'xml',
  xhtml: 'xml',
  svg: 'xml',
  rss: 'xml',
  atom: 'xml',
  plist: 'xml',
  vue: 'xml',
  toml: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  make: 'makefile',
  mk: 'makefile',
  md: 'markdown',
  mkd: 'markdown',
  mkdown: 'markdown',
  objc: 'objectivec',
  'obj-c': 'objectivec',
  pl: 'perl',
  pm: 'perl',
  ps: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  py: 'python',
  python3: 'python',
  gyp: 'python',
  rb: 'ruby',
  gemspec: 'ruby',
  rs: 'rust',
  sc: 'scala',
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
  sqlite: 'sql',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  yml: 'yaml',
};

const BY_NAME = new Map(CODE_LANGUAGES.map((language) => [language.name, language]));

/**
 * The grammar for a code block's info string (`ts title=a.ts` → TypeScript), or undefined when
 * Inkwell has no grammar for it (plain text, Mermaid, an unknown word).
 */
export function resolveCodeLanguage(info: string | null | undefined): CodeLanguage | undefined {
  const word = languageOf(info);
  if (!word) return undefined;
  return BY_NAME.get(ALIASES[word] ?? word);
}

/**
 * The info string after picking `name` in the language picker: the first word is replaced and
 * the rest (`title=a.ts`) kept; an empty name removes the language.
 */
export function withLanguage(info: string | null | undefined, name: string): string | null {
  const rest = (info ?? '').trim().split(/\s+/).slice(1).join(' ');
  // `text` keeps the attributes after it; the word alone would be read as a language.
  if (!name) return rest ? `text ${rest}` : null;
  return rest ? `${name} ${rest}` : name;
}
