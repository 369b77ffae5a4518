import { TRANSFORMS_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { ToolTransforms } from '../transform/ToolTransform';

/**
 * Changes this class's tools as clients see them: renames, new descriptions, hidden arguments
 * with a constant or computed value, narrowed argument schemas. Keyed by tool name; put it on
 * a subclass to reshape a class you do not own. Only records; the build applies it.
 *
 * @example
 * ＠TransformTools({ search: { name: 'find_orders', arguments: { tenant: { compute: (ctx) => ctx.authInfo?.extra?.sub } } } })
 * class MyOrders extends OrderTools {}
 */
export function TransformTools(transforms: ToolTransforms): ClassDecorator {
  const recorded = Object.freeze({ ...transforms });
  return (target) => {
    appendOwn(TRANSFORMS_KEY, target, recorded);
  };
}
