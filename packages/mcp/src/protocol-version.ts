import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Follows the protocol version `server` agrees on with each client that connects, which the SDK's `Server` keeps to
 * itself: it watches the initialize request on the transport and applies the SDK's own rule (the client's version
 * when supported, else the latest). Returns the current one (`undefined` before any client initialised).
 */
export function trackProtocolVersion(server: Server): () => string | undefined {
  let negotiated: string | undefined;
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    negotiated = undefined;
    await connect(transport);
    // The SDK has just installed its message handler; ours runs first and hands every message on unchanged.
    const handle = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (isInitializeRequest(message)) {
        const asked = message.params.protocolVersion;
        negotiated = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      }
      handle?.(message, extra);
    };
  };
  return () => negotiated;
}
