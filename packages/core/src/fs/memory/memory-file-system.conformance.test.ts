import { describeFileSystemConformance } from '@kimi-tools/test-kit';
import { memoryFileSystem } from './memory-file-system.js';

// The memory backend against every promise of the interface, as the local disk is held to them.
describeFileSystemConformance(
  'memory',
  async () => {
    const fs = memoryFileSystem();
    await fs.mkdir('/conformance');
    return { fs, root: '/conformance', cleanup: async () => {} };
  },
  { lacks: { fifo: 'a workspace in memory holds no special files' } },
);
