// @ts-check
/**
 * A typedoc plugin: names each entry point's module after the import path users write
 * (`@toolwright/server/testing`) instead of its folder (`server/src/testing`).
 */
import { Converter, ReflectionKind } from 'typedoc';

/** @param {string} name  typedoc's default module name, e.g. `server/src/testing` */
function importPath(name) {
  const match = /^([\w-]+)\/src(?:\/([\w-]+))?$/.exec(name);
  return match ? `@toolwright/${match[1]}${match[2] ? `/${match[2]}` : ''}` : name;
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      module.name = importPath(module.name);
    }
  });
}
