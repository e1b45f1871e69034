import { defineConfig } from 'tsup';
import { toolBuild } from '../../tsup.shared.js';

// sharp is an optional dependency, which tsup would otherwise bundle: it must stay an import, loaded on first need.
export default defineConfig({ ...toolBuild, external: ['sharp'] });
