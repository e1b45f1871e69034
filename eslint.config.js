import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's modules that reach the disk or run programs: only a file-system backend may use them. */
const DIRECT_ACCESS_MODULES = [
  'node:fs',
  'fs',
  'node:fs/promises',
  'fs/promises',
  'node:child_process',
  'child_process',
];
const DIRECT_ACCESS_MESSAGE =
  "Files and programs go through the runtime's file system (`runtime.fs`, docs/file-systems.md); only a backend touches the disk directly.";

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // No tool and no shared mechanism touches the disk or runs a program directly: everything goes through the
  // runtime's file system, so the tools work on any backend (issue 30). Tests and their fixtures use real files on the
  // local disk on purpose, and so does the test kit that makes them.
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.mts'],
    ignores: [
      '**/*.test.ts',
      '**/__fixtures__/**',
      'packages/test-kit/**',
      // The backends: the local disk, and the SSH package (keys and known_hosts are on the local disk).
      'packages/core/src/fs/local-file-system.ts',
      'packages/core/src/fs/local-lstat-many.ts',
      'packages/core/src/fs/local-byte-names.ts',
      'packages/ssh/src/**',
      // The checkpoint store: the host's own storage, always on the local disk whatever backend the workspace is on
      // (the workspace itself is read and rewound through `runtime.fs`).
      'packages/checkpoints/src/store/**',
      // A host, not a tool: mcp-server's command line names files of the machine it runs on (a local workspace
      // checked before the runtime exists, the permissions and identity files); its tools go through `runtime.fs`.
      'packages/mcp-server/src/**',
      // The apps (apps/playground, apps/reliability) are outside this rule: they set up and inspect local workspaces.
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: DIRECT_ACCESS_MODULES.map((name) => ({ name, message: DIRECT_ACCESS_MESSAGE })) },
      ],
      'no-restricted-syntax': [
        'error',
        ...DIRECT_ACCESS_MODULES.map((name) => ({
          selector: `ImportExpression[source.value='${name}']`,
          message: DIRECT_ACCESS_MESSAGE,
        })),
      ],
    },
  },
);
