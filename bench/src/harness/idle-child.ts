// A child that does nothing: its peak memory is the floor under every "ours" figure (Node itself).
import { measureInChild } from './child-report.js';

await measureInChild(() => ({}));
