import type { AnyTransform, Transform, TransformSpec } from '../core/transform.js';
import type { RunOptions, ToolsInput, TransformResult } from '../core/run-types.js';
import { runSteps } from './run.js';

/** Turns a spec into a transform (callable, frozen). */
export function defineTransform<O extends object, S = undefined>(spec: TransformSpec<O, S>): Transform<O, S> {
  const fn = function (input: ToolsInput, options?: Partial<O>, run?: RunOptions): TransformResult {
    return runSteps(input, [[transform as AnyTransform, options ?? {}]], run);
  };
  const { name, ...rest } = spec;
  Object.defineProperty(fn, 'name', { value: name, enumerable: true });
  Object.assign(fn, rest, { kind: 'transform', defaultOptions: Object.freeze({ ...spec.defaultOptions }), messages: Object.freeze({ ...spec.messages }) });
  const transform = Object.freeze(fn) as unknown as Transform<O, S>;
  return transform;
}
