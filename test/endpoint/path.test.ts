import { describe, expect, test } from 'vitest';
import { EndpointDefinitionError } from '../../core/errors.js';
import { RestEndpoint, createResource } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import {
  compilePath,
  parsePath,
  pathKeys,
  pathWithSearch,
  removeLastArg,
  searchString,
} from '../../core/endpoint/path.js';

describe('parsePath / pathKeys', () => {
  test('finds required and optional parameters', () => {
    expect(parsePath('/:group/posts/:id?')).toEqual([
      { name: 'group', optional: false, start: 1, end: 7 },
      { name: 'id', optional: true, start: 14, end: 18 },
    ]);
    expect(pathKeys('/files/:name.json')).toEqual(['name']);
    expect(pathKeys('/time/a:/b')).toEqual([]);
  });
});

describe('compilePath', () => {
  test('fills parameters', () => {
    expect(compilePath('/:group/posts/:id', { group: 'news', id: 5 })).toBe('/news/posts/5');
    expect(compilePath('/files/:name.json', { name: 'a' })).toBe('/files/a.json');
    expect(compilePath('/todos')).toBe('/todos');
  });

  test('encodes values so they cannot add segments, queries or fragments', () => {
    expect(compilePath('/todos/:id', { id: '../admin' })).toBe('/todos/..%2Fadmin');
    expect(compilePath('/todos/:id', { id: 'a?b=c' })).toBe('/todos/a%3Fb%3Dc');
    expect(compilePath('/todos/:id', { id: '#' })).toBe('/todos/%23');
    expect(compilePath('/todos/:id', { id: 'a b/ü' })).toBe('/todos/a%20b%2F%C3%BC');
  });

  test('drops an optional segment whose value is undefined, with its leading /', () => {
    expect(compilePath('/search/:q?/:page?', {})).toBe('/search');
    expect(compilePath('/search/:q?/:page?', { q: 'x' })).toBe('/search/x');
    expect(compilePath('/search/:q?/:page?', { page: 2 })).toBe('/search/2');
    expect(compilePath('/:q?', {})).toBe('/');
    expect(compilePath('/search/:q?/more', {})).toBe('/search/more');
  });

  test('a missing required parameter throws naming the parameter and the path', () => {
    expect(() => compilePath('/:group/posts/:id', { group: 'a' })).toThrow(
      /Missing path parameter "id" for path "\/:group\/posts\/:id"/,
    );
    expect(() => compilePath('/todos/:id', { id: '' })).toThrow(/"id".*empty string/);
    expect(() => compilePath('/todos/:id', { id: null })).toThrow(/"id"/);
  });

  test('a value that is not a string or a finite number throws a TypeError naming the parameter', () => {
    for (const id of [{}, [], [1], true, NaN, Infinity, new Date(0), () => 1]) {
      expect(() => compilePath('/todos/:id', { id })).toThrow(TypeError);
      expect(() => compilePath('/todos/:id', { id })).toThrow(
        /Path parameter "id" for path "\/todos\/:id" must be a string or a finite number/,
      );
    }
    expect(() => compilePath('/todos/:id', { id: 'a\uD800' })).toThrow(/lone UTF-16 surrogate/);
    expect(() => searchString('/todos', { q: '\uDC00' })).toThrow(/Query argument "q"/);
  });

  test('"." or ".." as a whole segment throws (the URL would resolve it); inside a segment dots are text', () => {
    expect(() => compilePath('/todos/:id', { id: '..' })).toThrow(/makes the segment "\.\."/);
    expect(() => compilePath('/todos/:id/comments', { id: '.' })).toThrow(TypeError);
    expect(() => compilePath('/:a:b', { a: '.', b: '.' })).toThrow(/makes the segment "\.\."/);
    expect(() => compilePath('/search/:q?', { q: '..' })).toThrow(TypeError);
    expect(compilePath('/todos/:id', { id: '...' })).toBe('/todos/...');
    expect(compilePath('/todos/:id', { id: '..a' })).toBe('/todos/..a');
    expect(compilePath('/files/:name.json', { name: '.' })).toBe('/files/..json');
  });
});

describe('removeLastArg', () => {
  test.each([
    ['/:a/:b', '/:a'],
    ['/:a', '/'],
    ['/:group/posts/:id', '/:group/posts'],
    ['/todos/:id', '/todos'],
    ['/todos/:id/comments', '/todos'],
    ['/todos', '/todos'],
  ])('%s -> %s', (path, expected) => {
    expect(removeLastArg(path)).toBe(expected);
  });
});

describe('searchString', () => {
  test('sorted keys, path parameters and undefined left out, arrays repeated, encoded', () => {
    expect(searchString('/:group/posts', { z: 1, group: 'g', a: 'x y', m: undefined, id: [1, 3], q: 'a&b=c' })).toBe(
      'a=x%20y&id=1&id=3&q=a%26b%3Dc&z=1',
    );
    expect(searchString('/todos', {})).toBe('');
    expect(searchString('/todos', { when: new Date(0), f: { a: 1 }, n: null })).toBe(
      'f=%7B%22a%22%3A1%7D&when=1970-01-01T00%3A00%3A00.000Z',
    );
  });

  test('pathWithSearch joins both', () => {
    expect(pathWithSearch('/:group/posts/:id?', { group: 'g', sort: 'asc' })).toBe('/g/posts?sort=asc');
    expect(pathWithSearch('/todos?fixed=1', { b: 2 })).toBe('/todos?fixed=1&b=2');
  });
});

describe('path syntax rx-rest does not support', () => {
  // data-client's path-to-regexp reads these; rx-rest would read them as literal text and build wrong URLs
  const base = { urlPrefix: 'http://path-syntax.test' };
  test.each([
    ['/todos{/:id}', /\{/],
    ['/files/*', /\*/],
    ['/files/:path*', /\*/],
    ['/files/:path+', /\+/],
    ['/todos/:id(\\d+)', /\(/],
    ['/a\\:b/:id', /\\/],
  ])('%s fails when the endpoint is built, naming the path and what to write instead', (path, what) => {
    expect(() => new RestEndpoint({ ...base, path })).toThrow(EndpointDefinitionError);
    expect(() => new RestEndpoint({ ...base, path })).toThrow(what);
    expect(() => new RestEndpoint({ ...base, path })).toThrow(path);
    expect(() => createResource({ ...base, path: `${path}/:extra`, schema: Todo })).toThrow(EndpointDefinitionError);
  });

  test('extend checks the new path too; the supported grammar still builds', () => {
    const ok = new RestEndpoint({ ...base, path: '/:group/posts/:id?' });
    expect(ok.url({ group: 'g' })).toBe('http://path-syntax.test/g/posts');
    expect(() => ok.extend({ path: '/posts/*' })).toThrow(EndpointDefinitionError);
    expect(new RestEndpoint({ ...base, path: '/files/:name.json' }).url({ name: 'a' })).toBe(
      'http://path-syntax.test/files/a.json',
    );
  });
});
