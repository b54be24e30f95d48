// A first rx-rest script: run it with `npm run example` (it starts the demo's REST server first).
import { Controller, Entity, createResource, type QueryState } from 'rx-rest';

class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({
  urlPrefix: process.env.RX_REST_API ?? 'http://127.0.0.1:3210',
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
  optimistic: true,
});

const controller = new Controller();

// A live query: emits the request's state now, then after every change that concerns it.
const print = ({ data, loading, error }: QueryState<Todo[]>) => {
  if (loading) console.log('[observe] loading…');
  else if (error) console.log(`[observe] error: ${error.message}`);
  else console.log(`[observe] ${data?.length} todos, ${data?.filter((todo) => todo.completed).length} done`);
};
const subscription = controller.observe(TodoResource.getList, { userId: 1 }).subscribe(print);

// controller.fetch resolves once the store holds the response (identical GETs in flight share one request)
const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
console.log(`[fetch] user 1 has ${todos.length} todos`);

// a mutation shows in every observer: optimistically at once, then with the server's answer
const first = todos[0]!;
await controller.fetch(TodoResource.partialUpdate, { id: first.id }, { completed: !first.completed });
console.log(`[partialUpdate] "${first.title}" is now ${first.completed ? 'open' : 'done'}`);

// a created todo joins every cached list whose arguments match its body (here: userId 1)
const created = await controller.fetch(
  TodoResource.getList.push,
  {},
  { userId: 1, title: 'Try rx-rest', completed: false },
);
console.log(`[push] created todo ${created.id}`);

// and a deleted one leaves every list; then put the first todo back as it was
await controller.fetch(TodoResource.delete, { id: created.id });
await controller.fetch(TodoResource.partialUpdate, { id: first.id }, { completed: first.completed });
console.log('[delete] done');

subscription.unsubscribe();
