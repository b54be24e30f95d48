/**
 * An outside review of `<ControllerProvider>`: what it was given is checked where it was given, so that a
 * controller missing from a prop is named there, not later as "no Controller in context" in a child.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, useController } from '../../../adapters/solid/index.js';

afterEach(cleanup);

function Child() {
  useController();
  return <p>child</p>;
}

describe('ControllerProvider', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a plain object', { controller: new Controller() }],
  ])('given %s throws a TypeError naming the controller prop and what it got', (_what, value) => {
    const mount = () =>
      render(() => (
        <ControllerProvider controller={value as never}>
          <Child />
        </ControllerProvider>
      ));
    expect(mount).toThrow(TypeError);
    expect(mount).toThrow(
      /rx-rest\/solid: <ControllerProvider controller=\{\.\.\.}> expects a Controller.*got (undefined|null|an object)/,
    );
  });

  it('takes a controller', () => {
    render(() => (
      <ControllerProvider controller={new Controller()}>
        <Child />
      </ControllerProvider>
    ));
    expect(screen.getByText('child')).toBeTruthy();
  });

  it('makes one controller from controller={new Controller(...)} (the prop is a getter that makes one per read)', () => {
    let made = 0;
    const make = () => (made++, new Controller());
    let seen: Controller | undefined;
    function Reader() {
      seen = useController();
      return <p>reader</p>;
    }
    render(() => (
      <ControllerProvider controller={make()}>
        <Reader />
      </ControllerProvider>
    ));
    expect(screen.getByText('reader')).toBeTruthy();
    expect(made).toBe(1);
    expect(seen).toBeInstanceOf(Controller);
  });
});
