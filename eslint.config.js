import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The import direction of STYLE.md, enforced: core/ is pure, ui/ never does I/O itself.
const effects = ['node:fs', 'node:fs/promises', 'node:child_process', 'fs', 'child_process', 'execa', 'node-pty', 'react', 'ink'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/cli.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'only src/cli.ts exits the process.' }],
    },
  },
  {
    // The lane machine (src/machine/) and the report's page (src/report/) are pure core too.
    files: ['src/core/**/*.ts', 'src/machine/**/*.ts', 'src/report/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: effects.map((name) => ({ name, message: 'src/core is pure: pass values in, return values out.' })),
        patterns: [{ group: ['**/adapters/*', '**/runtime/*', '**/ui/*', '**/commands/*'], message: 'src/core and src/machine import nothing with effects.' }],
      }],
      'no-restricted-globals': ['error', { name: 'process', message: 'src/core reads no environment or clock: pass it in.' }],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'pass `now` into the core.' },
        { object: 'process', property: 'exit', message: 'only src/cli.ts exits the process.' }],
    },
  },
  {
    // STYLE habit 3: one runner spawns tmux for a command (adapters/tmux/runner.ts); the control-mode
    // client (control.ts) is the one long-lived tmux process.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/adapters/tmux/runner.ts', 'src/adapters/tmux/control.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.name=/^(execa|execaSync|spawn|spawnSync|execFile|execFileSync)$/][arguments.0.value='tmux']",
        message: 'run tmux through adapters/tmux/runner.ts (runTmux, runTmuxClient), its argv built in adapters/tmux/argv.ts.',
      }],
    },
  },
  {
    // Adapters do I/O for the runtime and never lean on it (type-only imports included; lazy
    // import() and import cycles are held by scripts/check-imports.mjs, which `npm run lint` runs).
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/runtime/*', '**/commands/*', '**/ui/*', '**/cli.js', '**/hot.js'], message: 'src/adapters never imports the runtime (nor commands, ui): pass what it needs in.' }],
      }],
    },
  },
  {
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['node:fs', 'node:fs/promises', 'fs', 'execa', 'node-pty', 'node:child_process'].map((name) => ({ name, message: 'ui/ never does I/O: the engine hands it a store.' })),
      }],
      'no-console': 'error',
    },
  },
);
