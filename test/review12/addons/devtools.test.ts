/**
 * Outside review of `connectDevtools` (API.md "Add-on entry points": every action and state to the Redux
 * DevTools extension, its time travel applied), as a user of other stores' devtools connections (zustand's
 * middleware) would test it: the features it announces work, a paused recording sends nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsMessage } from '../../../adapters/devtools/index.js';
import { Controller, RestEndpoint } from '../../../core/index.js';
import { PlainTodo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review12-devtools.test',
  path: '/todos/:id',
  schema: PlainTodo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: 1, title, completed: false });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The extension's page API, recording what is sent; `monitor` sends a message as the monitor does. */
function installExtension() {
  const sends: { action: any; state: any }[] = [];
  const inits: unknown[] = [];
  let listener: ((message: DevtoolsMessage) => void) | undefined;
  let options: any;
  const extension = {
    connect(given: unknown) {
      options = given;
      return {
        init: (state: unknown) => inits.push(JSON.parse(JSON.stringify(state))),
        send: (action: unknown, state: unknown) => sends.push(JSON.parse(JSON.stringify({ action, state }))),
        subscribe: (l: (message: DevtoolsMessage) => void) => ((listener = l), () => (listener = undefined)),
        unsubscribe: () => (listener = undefined),
        error: () => {},
      };
    },
  };
  vi.stubGlobal('window', { __REDUX_DEVTOOLS_EXTENSION__: extension });
  return {
    sends,
    inits,
    options: () => options,
    monitor: (message: unknown) => listener?.(message as DevtoolsMessage),
  };
}

describe('connectDevtools: pausing the recording (the "pause" feature it announces)', () => {
  it('PAUSE_RECORDING stops sending actions; a second one resumes, and the next send carries the whole state', () => {
    const extension = installExtension();
    const c = new Controller({ environment: {} });
    const stop = connectDevtools(c);
    expect(extension.options().features.pause).toBe(true);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    expect(extension.sends).toHaveLength(1);
    extension.monitor({ type: 'DISPATCH', payload: { type: 'PAUSE_RECORDING', status: true } });
    c.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    c.setResponse(getTodo, { id: 3 }, todo(3, 'three'));
    expect(extension.sends).toHaveLength(1);
    extension.monitor({ type: 'DISPATCH', payload: { type: 'PAUSE_RECORDING', status: false } });
    c.setResponse(getTodo, { id: 4 }, todo(4, 'four'));
    expect(extension.sends).toHaveLength(2);
    expect(Object.keys(extension.sends[1]!.state.entities.PlainTodo).sort()).toEqual(['1', '2', '3', '4']);
    // the store itself never paused
    expect(c.get(PlainTodo, { id: 3 })?.title).toBe('three');
    stop();
    c.dispose();
  });

  it('a PAUSE_RECORDING without a status toggles, as the monitor’s button does', () => {
    const extension = installExtension();
    const c = new Controller({ environment: {} });
    const stop = connectDevtools(c);
    extension.monitor({ type: 'DISPATCH', payload: { type: 'PAUSE_RECORDING' } });
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    expect(extension.sends).toHaveLength(0);
    extension.monitor({ type: 'DISPATCH', payload: { type: 'PAUSE_RECORDING' } });
    c.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    expect(extension.sends).toHaveLength(1);
    stop();
    c.dispose();
  });

  it('time travel still applies while paused, and is not sent back', () => {
    const extension = installExtension();
    const c = new Controller({ environment: {} });
    const stop = connectDevtools(c);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    const before = JSON.stringify(extension.sends[0]!.state);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'changed'));
    extension.monitor({ type: 'DISPATCH', payload: { type: 'PAUSE_RECORDING', status: true } });
    extension.monitor({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE' }, state: before });
    expect(c.get(PlainTodo, { id: 1 })?.title).toBe('one');
    expect(extension.sends).toHaveLength(2);
    stop();
    c.dispose();
  });
});
