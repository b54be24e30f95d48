/**
 * Date-times below an entity's field (fixtures/nested-dates.yaml): in a list, a list of lists, a named plain type,
 * a nullable list of objects, a map, under keys an object literal cannot write as they are (`__proto__`, `x-y`).
 * Each is typed `Date` and read as one by the field's deserializer (the store keeps the strings); a field that
 * also holds an entity, and a plain type read outside any entity, keep their strings. Generated, type-checked
 * with `tsc --strict` (with a file of the app's own that uses the types), and read from the mock server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { analyze } from '../src/analyze.js';
import { loadSpec } from '../src/parse.js';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = new URL('./fixtures/nested-dates.yaml', import.meta.url).pathname;

/** An event as the server sends it: every date-time a string, `__proto__` an own key (as JSON.parse makes it). */
const EVENT = `{
  "id": 1,
  "at": "2024-01-01T10:00:00Z",
  "reminders": ["2024-01-01T09:00:00Z", "2024-01-01T09:30:00Z"],
  "windows": [["2024-02-01T00:00:00Z", null], []],
  "schedule": { "start": "2024-03-01T08:00:00Z", "end": null, "note": "n" },
  "slots": [{ "from": "2024-04-01T12:00:00Z", "label": "lunch" }],
  "history": { "created": "2023-12-01T00:00:00Z", "__proto__": "2023-12-02T00:00:00Z" },
  "odd": { "__proto__": "2024-05-01T00:00:00Z", "x-y": "2024-05-02T00:00:00Z" },
  "mixed": { "by": { "id": 7, "name": "Ann" }, "at": "2024-06-01T00:00:00Z" },
  "tags": ["a"]
}`;

/** The app's own code: the fields are Dates for TypeScript (and a string where one is kept). */
const APP = `import type { Event } from './index.js';
export function check(event: Event): Date[] {
  const schedule: Date = event.schedule.start;
  const end: Date | null | undefined = event.schedule.end;
  const window: Date | null | undefined = event.windows?.[0]?.[0];
  const from: Date | undefined = event.slots?.[0]?.from;
  const created: Date | undefined = event.history?.created;
  const kept: string | undefined = event.mixed?.at;
  // @ts-expect-error a date inside a list is no string
  const wrong: string = event.reminders[0];
  void [end, window, from, created, kept, wrong];
  return [schedule, ...event.reminders];
}
`;

describe('date-times inside lists and nested objects of an entity', () => {
  let generated: Generated;
  let api: Record<string, any>;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture);
    api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    generated.server.records.set('EventResource', new Map([['1', JSON.parse(EVENT) as Record<string, unknown>]]));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('types each as Date; the output and a file using it pass tsc --strict', () => {
    const event = generated.model.entities.find((e) => e.name === 'Event')!;
    expect(Object.fromEntries(event.fields.map((f) => [f.name, f.type]))).toEqual({
      id: 'number',
      at: 'Date | undefined',
      reminders: 'Date[]',
      windows: '(Date | null)[][] | undefined',
      schedule: '{ start: Date; end?: Date | null; note?: string }',
      slots: '{ from: Date; label?: string }[] | null',
      history: '{ [key: string]: Date } | undefined',
      odd: "{ __proto__?: Date; 'x-y'?: Date } | undefined",
      mixed: '{ by?: Person; at?: string } | undefined',
      tags: 'string[] | undefined',
    });
    // a plain type read outside any entity keeps its strings
    expect(generated.result.files.get('types.ts')).toMatch(
      /export type Schedule = \{ start: string; end\?: string \| null;/,
    );
    writeFileSync(join(generated.dir, 'app.ts'), APP);
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'app.ts'])).toEqual([]);
  }, 120_000);

  it('reads them as Dates from the server; the store keeps the strings; nulls stay null', async () => {
    const controller = new Controller();
    const event = (await controller.fetch(api.EventResource.get, { id: 1 })) as any;
    expect(event).toBeInstanceOf(api.Event);
    expect(event.at).toEqual(new Date('2024-01-01T10:00:00Z'));
    expect(event.reminders).toEqual([new Date('2024-01-01T09:00:00Z'), new Date('2024-01-01T09:30:00Z')]);
    expect(event.windows).toEqual([[new Date('2024-02-01T00:00:00Z'), null], []]);
    expect(event.schedule).toEqual({ start: new Date('2024-03-01T08:00:00Z'), end: null, note: 'n' });
    expect(event.slots).toEqual([{ from: new Date('2024-04-01T12:00:00Z'), label: 'lunch' }]);
    expect(event.history.created).toEqual(new Date('2023-12-01T00:00:00Z'));
    expect(event.odd['x-y']).toEqual(new Date('2024-05-02T00:00:00Z'));
    expect(event.mixed.at).toBe('2024-06-01T00:00:00Z');
    expect(event.mixed.by).toBeInstanceOf(api.Person);
    expect(event.tags).toEqual(['a']);
    const stored = controller.getState().entities.Event!['1'] as any;
    expect(stored.reminders).toEqual(['2024-01-01T09:00:00Z', '2024-01-01T09:30:00Z']);
    expect(stored.schedule.start).toBe('2024-03-01T08:00:00Z');
    expect(JSON.parse(JSON.stringify(controller.getState().entities.Event))['1'].windows[0][0]).toBe(
      '2024-02-01T00:00:00Z',
    );
    // one read of a record: the list gives the same instance, and its dates are the same objects
    const list = (await controller.fetch(api.EventResource.getList)) as any[];
    expect(list[0]).toBe(event);
    expect(controller.get(api.Event, '1').reminders).toBe(event.reminders);
  }, 60_000);

  it('a __proto__ key stays an own key read as a Date, and no prototype changes; one left out reads as none', async () => {
    const controller = new Controller();
    const event = (await controller.fetch(api.EventResource.get, { id: 1 })) as any;
    expect(Object.getOwnPropertyDescriptor(event.odd, '__proto__')?.value).toEqual(new Date('2024-05-01T00:00:00Z'));
    expect(Object.getPrototypeOf(event.odd)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(event.history, '__proto__')?.value).toEqual(
      new Date('2023-12-02T00:00:00Z'),
    );
    expect(Object.getPrototypeOf(event.history)).toBe(Object.prototype);
    controller.set(api.Event, {
      id: 2,
      reminders: [],
      schedule: { start: '2024-01-01T00:00:00Z' },
      odd: { 'x-y': null },
    });
    const other = controller.get(api.Event, '2');
    expect(Object.getOwnPropertyDescriptor(other.odd, '__proto__')?.value).toBeUndefined();
    expect(Object.getPrototypeOf(other.odd)).toBe(Object.prototype);
    expect(other.odd['x-y']).toBeNull();
    expect(other.schedule.start).toEqual(new Date('2024-01-01T00:00:00Z'));
  }, 60_000);

  it('temporal: true reads them as Temporal.Instant', async () => {
    const model = analyze(await loadSpec(fixture), { temporal: true });
    const event = model.entities.find((e) => e.name === 'Event')!;
    const reminders = event.fields.find((f) => f.name === 'reminders')!;
    expect(reminders.type).toBe('Temporal.Instant[]');
    expect(reminders.schema).toBe(
      '(value: string[]) => value.map((x1) => x1 == null ? x1 : Temporal.Instant.from(x1))',
    );
  });
});
