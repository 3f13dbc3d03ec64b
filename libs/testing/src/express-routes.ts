import type { Express } from 'express';

interface RouterLayer {
  rawPath?: string | RegExp | (string | RegExp)[];
  slash?: boolean;
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** `/a/:b` (and express 5's wildcard `/a/*b`) as an OpenAPI path template `/a/{b}`. */
const asTemplate = (path: string) => path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');

function walk(stack: RouterLayer[], prefix: string, found: Set<string>): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const method of Object.keys(layer.route.methods).filter((name) => layer.route!.methods[name] && name !== '_all')) {
        for (const path of paths) found.add(`${method.toUpperCase()} ${asTemplate(prefix + path)}`);
      }
    } else if (layer.handle?.stack) {
      if (typeof layer.rawPath !== 'string') throw new Error(`a router mounted at ${String(layer.rawPath)} cannot be listed`);
      walk(layer.handle.stack, layer.slash ? prefix : prefix + layer.rawPath, found);
    }
  }
}

/**
 * Every route an express 5 app serves, as `METHOD /path/{param}`, found by walking its router
 * stack (nested routers included); middleware that is not a route is not listed.
 */
export function expressRoutes(app: Express): string[] {
  const found = new Set<string>();
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '', found);
  return [...found].sort();
}

/** Every operation of an OpenAPI document, as `METHOD /path/{param}`. */
export function documentedOperations(document: { paths: Record<string, object> }): string[] {
  const methods = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => methods.has(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

/** What is served but not documented, and what is documented but not served. */
export function routeTableDifferences(served: string[], documented: string[]): { undocumented: string[]; notServed: string[] } {
  const doc = new Set(documented);
  const app = new Set(served);
  return { undocumented: served.filter((route) => !doc.has(route)), notServed: documented.filter((route) => !app.has(route)) };
}
