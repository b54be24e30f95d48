// Lint rules of the project: typescript-eslint's recommended set for every TypeScript file, the Svelte
// plugin for .svelte components and the Solid plugin for .tsx, with the few project choices below.
import js from '@eslint/js';
import solid from 'eslint-plugin-solid/configs/typescript';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      'test-results/',
      'demos/*/dist/',
      'demos/*/.svelte-kit/',
      'demos/*/build/',
      'demos/*/.output/',
      'demos/*/.vinxi/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // unused names are an error, except those that say so with a leading underscore
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // `any` is allowed only where a test or an internal generic needs it; the public types are checked by type tests
      '@typescript-eslint/no-explicit-any': 'off',
      // classes are keyed by identity (WeakMaps of plans, defaults, reserved names) and called as deserializers
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // `{}` is the path types' "no parameters" (an object type that adds nothing to an intersection)
      '@typescript-eslint/no-empty-object-type': 'off',
      // a `let` assigned after a closure that reads it was created (a subscription its callback ends)
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // type tests declare values only to take their types
    files: ['**/*.test-d.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  { files: ['**/*.tsx'], ...solid },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
    // Svelte 5 declares props as `let { a, b } = $props()`, even when none is reassigned
    rules: { 'prefer-const': 'off' },
  },
);
