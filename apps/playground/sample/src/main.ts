import { addTodo, completeTodo } from './todo.js';
import { summary } from './messages.js';

let list = addTodo([], 'Water the plants');
list = addTodo(list, 'Call the bakery');
list = completeTodo(list, 1);
console.log(summary(list));
