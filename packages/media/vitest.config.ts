import { packageTestConfig } from '../../vitest.shared.js';

// The suite runs on every file-system backend (local, memory, SSH).
export default packageTestConfig({}, { backends: true });
