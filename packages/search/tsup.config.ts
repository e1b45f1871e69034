import { defineConfig } from 'tsup';
import { toolBuild } from '../../tsup.shared.js';

// `import.meta.url` (glob-pattern.ts resolves micromatch from it) in the CommonJS build too.
export default defineConfig({ ...toolBuild, shims: true });
