// Runs before each test file of a run on another backend than the local disk: the file's connection is closed when
// it ends, so no worker is kept alive by an open socket.
import { afterAll } from 'vitest';
import { closeTestFileSystem } from './test-backend.js';

afterAll(() => closeTestFileSystem());
