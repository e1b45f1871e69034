import { defineConfig } from 'tsup';
import { toolBuild } from '../../tsup.shared.js';

// `import.meta.url` (common/module-url.ts resolves dependencies from it) in the CommonJS build too.
export default defineConfig({ ...toolBuild, shims: true });
