import { defineConfig } from 'tsup';
import { toolBuild } from '../../tsup.shared.js';

export default defineConfig(toolBuild);
