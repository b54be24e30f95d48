/** TanStack's solid-query: the list cached with `setQueryData`, read with `useQuery` and `<For>`; one todo changed with `setQueryData` mapping the list. */
import { QueryClient, useQuery } from '@tanstack/solid-query';
import { For } from 'solid-js';
import { render } from 'solid-js/web';
import type { TodoRow } from '../api.js';
import type { Variant } from '../harness.js';
import { row } from './row.jsx';

const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity } } });

function List() {
  const todos = useQuery(
    () => ({ queryKey: ['todos'], queryFn: (): Promise<TodoRow[]> => Promise.reject(new Error('cached only')) }),
    () => client,
  );
  return (
    <ul>
      <For each={todos.data}>{row}</For>
    </ul>
  );
}

export default {
  prepare: (data) => client.setQueryData(['todos'], data),
  mount(target) {
    render(() => <List />, target);
    return {
      update: (id, title) =>
        client.setQueryData<TodoRow[]>(['todos'], (old) =>
          old?.map((todo) => (todo.id === id ? { ...todo, title } : todo)),
        ),
    };
  },
} satisfies Variant;
