/** One item of the to-do list. */
export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

/** Adds an item at the end of the list. */
export function addTodo(list: Todo[], title: string): Todo[] {
  const id = list.length + 1;
  return [...list, { id, title, done: false }];
}

/** Marks the item with this id as done. */
export function completeTodo(list: Todo[], id: number): Todo[] {
  const index = list.findIndex((todo) => todo.id === id);
  if (index === -1) return list;
  return list.map((todo, at) => (at === index ? { ...todo, done: true } : todo));
}

/** Removes the item with this id. */
export function removeTodo(list: Todo[], id: number): Todo[] {
  const index = list.findIndex((todo) => todo.id === id);
  if (index === -1) return list;
  return list.filter((_, at) => at === index);
}
