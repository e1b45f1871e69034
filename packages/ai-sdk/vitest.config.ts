import { packageTestConfig } from '../../vitest.shared.js';

// Each file sees its own `ai` (ai-sdk-5.test.ts swaps it for AI SDK 5 with vi.mock), so files must not share modules.
export default packageTestConfig({ test: { isolate: true } });
