/**
 * Keeping V8's object shapes alive.
 *
 * V8 discards a class's object shape (hidden class) once no instance of it is alive, and with it all
 * the optimized code that checks that shape. The hot classes of normalize and denormalize (Normalizer,
 * MemoCache, ReadPass, ReadResult, and the instances a read builds for each Entity class) are made and
 * dropped on every call, so without a live instance every major garbage collection between two calls
 * would throw the optimized normalize and read code away (measured: half the time of writing a
 * 500-article response went to running it unoptimized; reads fell from 1.2x to 0.55x JSON.parse).
 *
 * So each of them keeps one idle instance alive: the module-wide classes here, for the life of the
 * module (`keepShape`); each Entity class in its plan (`EntityPlan.keeper`, dropped with the class).
 * A kept instance holds only class defaults or empty tables, never data of a store.
 */

const kept: object[] = [];

/** Keeps `instance` alive for the life of the module (see above), and returns it. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
