// Runs before each test file of a package that uses fast-check: every property of the run gets the seed the global
// setup chose (fixed unless FAST_CHECK_SEED says otherwise), whatever parameters the test passes besides.
import fc from 'fast-check';
import { inject } from 'vitest';
// The type of inject('fastCheckSeed') is declared next to the global setup that provides it.
import type {} from './fast-check-seed.global.js';

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: inject('fastCheckSeed') });
