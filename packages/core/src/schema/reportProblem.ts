import type { Class } from '../metadata/Class';
import type { SchemaContext } from './SchemaContext';
import { className } from './isDtoClass';

/** Pushes a problem once: a DTO used in several places of one schema is reported once. */
export function reportProblem(ctx: SchemaContext, where: string, what: string, fix: string): void {
  if (ctx.problems.some((p) => p.where === where && p.what === what)) return;
  ctx.problems.push({ where, what, fix });
}

/** Where a property's problems are reported: `WeatherTools.search -> Filter.city`. */
export function propertyWhere(ctx: SchemaContext, cls: Class, property: string): string {
  return `${ctx.where} -> ${className(cls)}.${property}`;
}
