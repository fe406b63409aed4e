import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'data/', '.tmp/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // With noUncheckedIndexedAccess every bounds-checked index is `T | undefined`; `!` is the idiom.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through server/config.ts (or scripts/env.ts for tooling).',
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server/*'],
              message: 'client/ never imports server/: share code through common/.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the server through client/lib/api.ts.' },
      ],
    },
  },
  {
    files: [
      'client/lib/api.ts',
      // The API client's transport for large bodies (see offThreadFetch.ts).
      'client/lib/offThreadFetch.ts',
      'client/lib/fetchWorker.ts',
      'server/config.ts',
      'server/test/**',
      'scripts/env.ts',
      'e2e/**',
      'bench/**',
    ],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-globals': 'off' },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/client/**', 'react', 'react-dom', '@tiptap/react'],
              message: 'common/ runs in Node and the browser: no React, no client or server code.',
            },
          ],
        },
      ],
    },
  },
);
