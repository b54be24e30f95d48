/**
 * Outside review of Union, Values, All and Query from API.md and the docs: the attribute as a field name
 * and as a function, unknown types, polymorphic lists, reads of whole tables and computed queries.
 */
import { describe, expect, it } from 'vitest';
import { Entity, NormalizeError, RestEndpoint, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';
import { record } from '../../fixtures/streams.js';

const API = 'http://r11p.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Photo extends Entity {
  id = 0;
  type = 'photo';
  url = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Photo';
}
class Video extends Entity {
  id = 0;
  type = 'video';
  seconds = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Video';
}

const media = new schema.Union({ photo: Photo, video: Video }, 'type');
const mediaByShape = new schema.Union({ photo: Photo, video: Video }, (value: Record<string, unknown>) =>
  'seconds' in value ? 'video' : 'photo',
);

const feed = new RestEndpoint({ urlPrefix: API, path: '/feed', schema: [media] });
const feedByShape = new RestEndpoint({ urlPrefix: API, path: '/feed2', schema: new schema.Array(mediaByShape) });
const one = new RestEndpoint({ urlPrefix: API, path: '/media/:id', schema: media });

describe('Union', () => {
  it('a field attribute picks the member class; equal pks of two members are two records', () => {
    const c = make();
    c.setResponse(feed, {}, [
      { id: 1, type: 'photo', url: 'a.png' },
      { id: 1, type: 'video', seconds: 3 },
    ]);
    const [p, v] = c.getResponse(feed, {}).data!;
    expect(p).toBeInstanceOf(Photo);
    expect(v).toBeInstanceOf(Video);
    expect((v as Video).seconds).toBe(3);
    expect(c.getState().entities.R11Photo?.['1']).toMatchObject({ url: 'a.png' });
    expect(c.getState().entities.R11Video?.['1']).toMatchObject({ seconds: 3 });
  });

  it('a function attribute picks the member class from the value', () => {
    const c = make();
    c.setResponse(feedByShape, {}, [
      { id: 2, url: 'b.png' },
      { id: 3, seconds: 9 },
    ]);
    const [p, v] = c.getResponse(feedByShape, {}).data!;
    expect(p).toBeInstanceOf(Photo);
    expect(v).toBeInstanceOf(Video);
  });

  it('an unknown type is a NormalizeError naming the union, and nothing of the response is stored', () => {
    const c = make();
    c.setResponse(feed, {}, [{ id: 1, type: 'photo', url: 'a.png' }]);
    const before = c.getState();
    let error: unknown;
    try {
      c.setResponse(feed, {}, [
        { id: 4, type: 'photo', url: 'c.png' },
        { id: 5, type: 'gif', url: 'd.gif' },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NormalizeError);
    expect((error as Error).message).toMatch(/gif|photo|R11Photo/);
    expect(c.getState().entities).toBe(before.entities);
    expect(c.getResponse(feed, {}).data).toHaveLength(1);
  });

  it('a single Union result reads as its member; a change of one member keeps the other instances', () => {
    const c = make();
    c.setResponse(one, { id: 1 }, { id: 1, type: 'video', seconds: 1 });
    expect(c.getResponse(one, { id: 1 }).data).toBeInstanceOf(Video);
    c.setResponse(feed, {}, [
      { id: 1, type: 'photo', url: 'a.png' },
      { id: 2, type: 'photo', url: 'b.png' },
    ]);
    const before = c.getResponse(feed, {}).data!;
    c.set(Photo, { id: 2, url: 'bb.png' });
    const after = c.getResponse(feed, {}).data!;
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect((after[1] as Photo).url).toBe('bb.png');
  });

  it('Invalidate of a union member drops it from the union list', () => {
    const c = make();
    c.setResponse(feed, {}, [
      { id: 1, type: 'photo', url: 'a.png' },
      { id: 1, type: 'video', seconds: 2 },
    ]);
    const del = new RestEndpoint({
      urlPrefix: API,
      path: '/photos/:id',
      method: 'DELETE',
      schema: new schema.Invalidate(Photo),
    });
    c.setResponse(del, { id: 1 }, { id: 1 });
    const list = c.getResponse(feed, {}).data!;
    expect(list).toHaveLength(1);
    expect(list[0]).toBeInstanceOf(Video);
  });
});

class Rate extends Entity {
  code = '';
  value = 0;
  pk() {
    return this.code;
  }
  static override key = 'R11Rate';
}

describe('Values', () => {
  it('reads an object of entities; null values left out; an update keeps the unchanged instances', () => {
    const rates = new RestEndpoint({ urlPrefix: API, path: '/rates', schema: new schema.Values(Rate) });
    const c = make();
    c.setResponse(rates, {}, { eur: { code: 'EUR', value: 1 }, usd: { code: 'USD', value: 2 }, gbp: null } as never);
    const before = c.getResponse(rates, {}).data!;
    expect(Object.keys(before).sort()).toEqual(['eur', 'usd']);
    expect(before.eur).toBeInstanceOf(Rate);
    c.set(Rate, { code: 'USD', value: 3 });
    const after = c.getResponse(rates, {}).data!;
    expect(after).not.toBe(before);
    expect(after.eur).toBe(before.eur);
    expect(after.usd?.value).toBe(3);
  });
});

describe('All and Query', () => {
  it('All reads every record of the table and follows new ones; Query reruns only when what it read changed', () => {
    const c = make();
    const all = new schema.All(Rate);
    expect(c.get(all)).toBeUndefined();
    c.set(Rate, { code: 'EUR', value: 1 });
    c.set(Rate, { code: 'USD', value: 2 });
    expect(
      c
        .get(all)
        ?.map((r) => r.code)
        .sort(),
    ).toEqual(['EUR', 'USD']);
    let runs = 0;
    const total = new schema.Query(all, (entries: readonly Rate[], min?: number) => {
      runs++;
      return entries.filter((r) => r.value >= (min ?? 0)).reduce((s, r) => s + r.value, 0);
    });
    const s = record(c.observe(total, 2));
    expect(s.last().data).toBe(2);
    expect(s.last().loading).toBe(false);
    const runsBefore = runs;
    c.set(Photo, { id: 9, url: 'x' });
    expect(runs).toBe(runsBefore);
    expect(s.values).toHaveLength(1);
    c.set(Rate, { code: 'GBP', value: 5 });
    expect(s.last().data).toBe(7);
    s.unsubscribe();
  });
});
