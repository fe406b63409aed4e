import type { LanguageFn } from 'highlight.js';
import { languageOf } from '../../../../common/editor/nodes/CodeBlock.ts';

type GrammarModule = { default: LanguageFn };

/** A grammar the code block can highlight, as offered in the language picker. */
export interface CodeLanguage {
  /** highlight.js's name for the grammar, written into the info string when picked. */
  name: string;
  /** What the picker shows. */
  label: string;
  /** Loads the grammar; a static import path, so that Vite can split each one into a chunk. */
  load: () => Promise<GrammarModule>;
}

/** The grammars Inkwell highlights, alphabetical by label. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { name: 'bash', label: 'Bash', load: () => import('highlight.js/lib/languages/bash') },
  { name: 'c', label: 'C', load: () => import('highlight.js/lib/languages/c') },
  { name: 'csharp', label: 'C#', load: () => import('highlight.js/lib/languages/csharp') },
  { name: 'cpp', label: 'C++', load: () => import('highlight.js/lib/languages/cpp') },
  { name: 'css', label: 'CSS', load: () => import('highlight.js/lib/languages/css') },
  { name: 'dart', label: 'Dart', load: () => import('highlight.js/lib/languages/dart') },
  { name: 'diff', label: 'Diff', load: () => import('highlight.js/lib/languages/diff') },
  {
    name: 'dockerfile',
    label: 'Dockerfile',
    load: () => import('highlight.js/lib/languages/dockerfile'),
  },
  { name: 'elixir', label: 'Elixir', load: () => import('highlight.js/lib/languages/elixir') },
  { name: 'go', label: 'Go', load: () => import('highlight.js/lib/languages/go') },
  { name: 'graphql', label: 'GraphQL', load: () => import('highlight.js/lib/languages/graphql') },
  { name: 'haskell', label: 'Haskell', load: () => import('highlight.js/lib/languages/haskell') },
  { name: 'xml', label: 'HTML / XML', load: () => import('highlight.js/lib/languages/xml') },
  { name: 'ini', label: 'INI / TOML', load: () => import('highlight.js/lib/languages/ini') },
  { name: 'java', label: 'Java', load: () => import('highlight.js/lib/languages/java') },
  {
    name: 'javascript',
    label: 'JavaScript',
    load: () => import('highlight.js/lib/languages/javascript'),
  },
  { name: 'json', label: 'JSON', load: () => import('highlight.js/lib/languages/json') },
  { name: 'kotlin', label: 'Kotlin', load: () => import('highlight.js/lib/languages/kotlin') },
  { name: 'lua', label: 'Lua', load: () => import('highlight.js/lib/languages/lua') },
  {
    name: 'makefile',
    label: 'Makefile',
    load: () => import('highlight.js/lib/languages/makefile'),
  },
  {
    name: 'markdown',
    label: 'Markdown',
    load: () => import('highlight.js/lib/languages/markdown'),
  },
  {
    name: 'objectivec',
    label: 'Objective-C',
    load: () => import('highlight.js/lib/languages/objectivec'),
  },
  { name: 'perl', label: 'Perl', load: () => import('highlight.js/lib/languages/perl') },
  { name: 'php', label: 'PHP', load: () => import('highlight.js/lib/languages/php') },
  {
    name: 'powershell',
    label: 'PowerShell',
    load: () => import('highlight.js/lib/languages/powershell'),
  },
  { name: 'python', label: 'Python', load: () => import('highlight.js/lib/languages/python') },
  { name: 'r', label: 'R', load: () => import('highlight.js/lib/languages/r') },
  { name: 'ruby', label: 'Ruby', load: () => import('highlight.js/lib/languages/ruby') },
  { name: 'rust', label: 'Rust', load: () => import('highlight.js/lib/languages/rust') },
  { name: 'scala', label: 'Scala', load: () => import('highlight.js/lib/languages/scala') },
  { name: 'scss', label: 'SCSS', load: () => import('highlight.js/lib/languages/scss') },
  { name: 'shell', label: 'Shell session', load: () => import('highlight.js/lib/languages/shell') },
  { name: 'sql', label: 'SQL', load: () => import('highlight.js/lib/languages/sql') },
  { name: 'swift', label: 'Swift', load: () => import('highlight.js/lib/languages/swift') },
  {
    name: 'typescript',
    label: 'TypeScript',
    load: () => import('highlight.js/lib/languages/typescript'),
  },
  { name: 'yaml', label: 'YAML', load: () => import('highlight.js/lib/languages/yaml') },
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
