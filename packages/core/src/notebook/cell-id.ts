/** nbformat 4.5's pattern for a cell `id`: 1 to 64 ASCII letters, digits, `-` and `_`. */
const CELL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `id` is a cell id nbformat allows: the only ids ReadFile shows as a cell's name. */
export function isCellId(id: string): boolean {
  return CELL_ID.test(id);
}
