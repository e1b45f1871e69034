import { nodeCrypto } from '../fs/load-on-use.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A fresh cell `id` unused in the notebook, in the style its cells already use: a UUID as JupyterLab writes them when
 * some id is one, else 8 hex digits as nbformat writes them. Both match the nbformat 4.5 id pattern.
 */
export function newCellId(existing: ReadonlySet<string>): string {
  const uuids = [...existing].some((id) => UUID.test(id));
  for (;;) {
    const uuid = nodeCrypto().randomUUID();
    const id = uuids ? uuid : uuid.replaceAll('-', '').slice(0, 8);
    if (!existing.has(id)) return id;
  }
}
