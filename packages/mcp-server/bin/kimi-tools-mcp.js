#!/usr/bin/env node
// The `kimi-tools-mcp` command. It is a file of the package, not of its build, so that pnpm can link the command into
// the packages that depend on this one in the workspace before anything is built; the server is the built `dist/cli.js`.
import '../dist/cli.js';
