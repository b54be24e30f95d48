/** TanStack's svelte-query: the list cached with `setQueryData`, one todo changed with `setQueryData` mapping the list. */
import { QueryClient } from '@tanstack/svelte-query';
import { flushSync, mount } from 'svelte';
import type { TodoRow } from '../api.js';
import type { Variant } from '../harness.js';
import TanstackList from './TanstackList.svelte';

const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity } } });

export default {
  prepare: (data) => client.setQueryData(['todos'], data),
  mount(target) {
    mount(TanstackList, { target, props: { client } });
    flushSync();
    return {
      update: (id, title) =>
        client.setQueryData<TodoRow[]>(['todos'], (old) =>
          old?.map((todo) => (todo.id === id ? { ...todo, title } : todo)),
        ),
    };
  },
} satisfies Variant;
