import type { Todo } from './todo.js';

/** What the list says about itself, in the team’s “friendly” voice. */
export function summary(list: Todo[]): string {
  const open = list.filter((todo) => !todo.done).length;
  if (open === 0) return 'You’re all done!';
  return `You’ve got ${open} thing${open === 1 ? '' : 's'} left to do.`;
}
