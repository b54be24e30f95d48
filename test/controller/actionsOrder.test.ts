/**
 * `actions$` lists the writes in the order they were made: a write made by a subscriber while the store emits
 * (a `state$` subscriber, an observer, an `actions$` subscriber) comes after the write it reacted to, however
 * deeply such writes nest, while `state$` subscribers still end on the current state.
 */
import { describe, expect, it } from 'vitest';
import { Controller, type ControllerAction, type State } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { record } from '../fixtures/streams.js';

/** Each action as `type:title of the todo it set` (or `type:key`). */
function describeAction(action: ControllerAction): string {
  const args = action.args as readonly unknown[] | undefined;
  const value = args?.[args.length - 1] as { id?: number } | undefined;
  return `${action.type}:${action.key ?? value?.id ?? ''}`;
}

describe('actions$ and writes made while the store emits', () => {
  it('a state$ subscriber that writes: its action comes after the write it reacted to', () => {
    const c = new Controller();
    const actions: string[] = [];
    c.actions$.subscribe((action) => actions.push(describeAction(action)));
    const before = record<State>(c.state$);
    c.state$.subscribe((state) => {
      if (state.entities.Todo?.['1'] && !state.entities.Todo['2']) c.set(Todo, { id: 2 }, row(2));
    });
    const after = record<State>(c.state$);
    c.set(Todo, { id: 1 }, row(1));
    expect(actions).toEqual(['set:1', 'set:2']);
    const order = (c.getState().entities.Todo ?? {}) as Record<string, unknown>;
    expect(Object.keys(order)).toEqual(['1', '2']);
    expect(before.last()).toBe(c.getState());
    expect(after.last()).toBe(c.getState());
    c.dispose();
  });

  it('writes nested three deep, and two siblings, come out in the order they were made', () => {
    const c = new Controller();
    const sets: number[] = [];
    c.actions$.subscribe((action) => {
      const rows = action.args as readonly unknown[] | undefined;
      if (action.type === 'set') sets.push(...[rows?.[rows.length - 1]].map((r) => (r as { id: number }).id));
      else sets.push(-1);
    });
    const has = (state: State, id: number) => state.entities.Todo?.[String(id)] !== undefined;
    // 1 -> 2 -> 3 (nested), and 1 -> 4 (a sibling of 2, from another subscriber)
    c.state$.subscribe((state) => {
      if (has(state, 1) && !has(state, 2)) c.set(Todo, { id: 2 }, row(2));
      if (has(state, 2) && !has(state, 3)) c.set(Todo, { id: 3 }, row(3));
    });
    c.observe(Todo, { id: 1 }).subscribe((state) => {
      if (state.data && !has(c.getState(), 4)) c.set(Todo, { id: 4 }, row(4));
    });
    c.set(Todo, { id: 1 }, row(1));
    expect(sets).toEqual([1, 2, 3, 4]);
    c.dispose();
  });

  it('a response written in reaction to a set: set, then the response', () => {
    const c = new Controller();
    const actions: string[] = [];
    c.actions$.subscribe((action) => actions.push(`${action.type}:${action.key ?? ''}`));
    let answered = false;
    c.observe(Todo, { id: 1 }).subscribe((state) => {
      if (!state.data || answered) return;
      answered = true;
      c.setResponse(TodoResource.get, { id: 1 }, row(1, 'from the server'));
    });
    c.set(Todo, { id: 1 }, row(1));
    expect(actions).toEqual(['set:', `set:${TodoResource.get.key({ id: 1 })}`]);
    c.dispose();
  });

  it('an actions$ subscriber that writes: its action after the one it reacted to, for every subscriber', () => {
    const c = new Controller();
    const first: number[] = [];
    const second: number[] = [];
    const idOf = (action: ControllerAction) => {
      const args = action.args as readonly unknown[];
      return (args[args.length - 1] as { id: number }).id;
    };
    c.actions$.subscribe((action) => first.push(idOf(action)));
    c.actions$.subscribe((action) => {
      if (idOf(action) === 1) c.set(Todo, { id: 2 }, row(2));
    });
    c.actions$.subscribe((action) => second.push(idOf(action)));
    c.state$.subscribe((state) => {
      if (state.entities.Todo?.['1'] && !state.entities.Todo['3']) c.set(Todo, { id: 3 }, row(3));
    });
    c.set(Todo, { id: 1 }, row(1));
    expect(first).toEqual([1, 3, 2]);
    expect(second).toEqual([1, 3, 2]);
    c.dispose();
  });
});
